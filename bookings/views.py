"""Pages of bookings: /calendar (the user's visits by month and their private calendar feed) and
the feed itself, /calendar/<token>.ics, which calendar apps read without signing in."""

from __future__ import annotations

import itertools
import zoneinfo

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.guards import login_required_page, queue_toast
from bookings import selectors, services
from bookings.calendar import calendar_ics
from marketplace.errors import NotFound


def _feed_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("calendar-feed", args=[token]))


@require_GET
@login_required_page
def calendar_page(request: HttpRequest) -> HttpResponse:
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    today = timezone.localdate()
    visits = [v for v in selectors.calendar_visits(user=request.user) if v.starts_at.astimezone(zone).date() >= today]
    months = [
        (month, list(group))
        for month, group in itertools.groupby(visits, key=lambda v: v.starts_at.astimezone(zone).strftime("%B %Y"))
    ]
    feed_url = _feed_url(request, services.calendar_feed_token(user=request.user))
    context = {
        "months": months,
        "feed_url": feed_url,
        "webcal_url": "webcal://" + feed_url.split("://", 1)[1],
    }
    return render(request, "pages/calendar.html", context)


@require_POST
@login_required_page
def calendar_feed_reset(request: HttpRequest) -> HttpResponse:
    services.calendar_feed_reset(user=request.user)
    queue_toast(
        request,
        title="New calendar address",
        description="The old address no longer works. Subscribe again with the new one.",
    )
    return HttpResponseRedirect(reverse("calendar"))


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user = selectors.calendar_feed_owner(token=token)
    except NotFound:
        raise Http404("Calendar feed not found.") from None
    body = calendar_ics(user=user, page_url=request.build_absolute_uri(reverse("calendar")))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="kindly-visits.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response
