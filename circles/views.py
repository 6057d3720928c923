"""Pages of care circles: /care-circle (the island) and /care-circle/join/<token> (server-rendered).

The join page works without JavaScript: signed in, its button POSTs back to the page, which
calls circles.services.invitation_accept and goes on to /care-circle; signed out, it links to
/login?next=<this page> with the invited email filled in (the sign-up card when that email has
no account yet). A link that is expired, withdrawn, used or broken gets a calm
explanation (never an error page).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts.guards import login_required_page, queue_toast
from accounts.models import UserType
from circles import selectors, services
from circles.api.serializers import CareRecipientSerializer
from circles.models import CircleRole
from core.errors import DomainError


@login_required_page
def care_circle(request: HttpRequest) -> HttpResponse:
    user = request.user
    # A client who became a helper keeps her circles (her own requests and bookings are theirs):
    # a provider account in a circle sees it as any member does.
    recipients = [] if user.is_admin else selectors.care_circle_list(user=user)
    is_client = user.user_type == UserType.CLIENT or bool(recipients)
    props = {
        "viewer": {
            "id": user.pk,
            "firstName": user.first_name,
            "hasSelf": any(r.account_id == user.pk for r in recipients),
        },
        "recipients": CareRecipientSerializer(recipients, many=True, context={"viewer_id": user.pk}).data,
    }
    return render(request, "pages/care-circle.html", {"props": props, "is_client": is_client})


@require_http_methods(["GET", "POST"])
def care_circle_join(request: HttpRequest, token: str) -> HttpResponse:
    invitation, problem = selectors.invitation_for_page(token=token)
    error = ""
    if request.method == "POST" and not problem:
        if not request.user.is_authenticated:
            return HttpResponseRedirect("/login?" + urlencode({"next": request.path}))
        try:
            member = services.invitation_accept(user=request.user, token=token)
        except DomainError as failure:
            error = failure.message
        else:
            queue_toast(
                request,
                title=gettext("You joined the care circle"),
                description=gettext("You are now in %(name)s's care circle.") % {"name": member.recipient.full_name},
            )
            return HttpResponseRedirect("/care-circle")
    context = {
        "invitation": invitation if not problem else None,
        "recipient": invitation.recipient if invitation else None,
        "invites": services.invitation_words(invitation)[1] if invitation else "",
        "as_organizer": bool(invitation and invitation.role == CircleRole.ORGANIZER),
        "problem": problem,
        "error": error,
        "login_url": "/login?"
        + urlencode(
            selectors.invitation_login_query(invitation=None if problem else invitation, next_path=request.path)
        ),
        "can_join": request.user.is_authenticated and request.user.user_type == UserType.CLIENT,
    }
    return render(request, "pages/care-circle-join.html", context, status=200)
