"""Pages of the requests app: /request-service (the create form)."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.guards import login_required_page
from accounts.models import UserType
from marketplace.api import input_limits
from marketplace.errors import NotFound
from providers.selectors import provider_get_public
from requests_app.api.serializers import ServiceRequestCreateSerializer, ServiceRequestUpdateSerializer
from requests_app.models import CANCELLATION_WINDOW, WINDOW_START, ServiceCategory
from requests_app.selectors import category_list_active, recipients_to_request_for
from requests_app.services import PREFERRED_DATE_TOO_FAR, preferred_date_latest


def _date_bounds() -> dict[str, str]:
    """The preferred date's range, today to a year ahead in the site's zone (the server checks the same)."""
    today = timezone.localdate()
    return {
        "today": today.isoformat(),
        "latestDate": preferred_date_latest(today).isoformat(),
        "latestDateMessage": PREFERRED_DATE_TOO_FAR,
    }


def _short_notice_props() -> dict:
    """What the request forms need to say, before submitting, that a visit this close cannot be
    cancelled in the app (bookings.services.check_cancel_window): the earliest visit start a
    client may still cancel, as wall-clock time in the site's zone, and when each time window
    starts (the visit start is the date plus its window's start)."""
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    cutoff = (timezone.now() + CANCELLATION_WINDOW).astimezone(zone)
    return {
        "cancelCutoff": cutoff.strftime("%Y-%m-%dT%H:%M"),
        "cancelWindowHours": int(CANCELLATION_WINDOW.total_seconds() // 3600),
        "windowStarts": {str(window): start.strftime("%H:%M") for window, start in WINDOW_START.items()},
    }


def _asked_provider(request: HttpRequest, categories: list[ServiceCategory]) -> tuple[dict | None, int | None]:
    """?provider=<id> (Contact on the browse page): the verified provider the client came from, to
    name on the page, and the category of their first service that is offered, to preselect.
    Requests are open to every verified provider (there are no direct requests yet), so the page
    says so. An unknown, unverified or malformed id is ignored: the plain form."""
    raw = request.GET.get("provider", "").strip()
    if not raw.isdigit() or len(raw) > 9:
        return None, None
    try:
        provider = provider_get_public(provider_id=int(raw))
    except NotFound:
        return None, None
    by_slug = {c.slug: c for c in categories}
    category = next((by_slug[s] for s in provider.specialties if s in by_slug), None)
    asked = {"firstName": provider.user.first_name or "this provider", "service": category.name if category else ""}
    return asked, category.id if category else None


@login_required_page
def request_service(request: HttpRequest) -> HttpResponse:
    """The create form. Only client accounts may post requests; others see why above the form.
    From a provider's Contact button (?provider=<id>) it names them and preselects their service."""
    categories = list(category_list_active())
    asked, category_id = _asked_provider(request, categories)
    props = {
        "categories": [{"id": c.id, "name": c.name, "slug": c.slug} for c in categories],
        "categoryId": category_id,
        **_date_bounds(),
        "canRequest": request.user.user_type == UserType.CLIENT,
        # Each field's limits and their messages, as the API answers them.
        "limits": input_limits(ServiceRequestCreateSerializer),
        "shortNotice": _short_notice_props(),
        # "Who is this for?": the recipients the user organizes (id null: "Myself", made on posting).
        "recipients": recipients_to_request_for(user=request.user),
    }
    return render(request, "pages/request_service.html", {"props": props, "asked": asked})


def _viewer_props(user) -> dict:
    """Who is looking: the islands decide which actions to offer (the API enforces them)."""
    # The reverse one-to-one raises RelatedObjectDoesNotExist (an AttributeError) when absent.
    provider = getattr(user, "provider", None)
    return {
        "id": user.id,
        "firstName": user.first_name,
        "userType": user.user_type,
        "provider": {"id": provider.id, "verificationStatus": provider.verification_status} if provider else None,
    }


def _request_id(request: HttpRequest) -> str | None:
    """The ?id= of the details and edit pages: None when missing, else the raw text (the island says
    "Request Not Found" for anything the API cannot load)."""
    value = request.GET.get("id", "").strip()
    return value or None


@login_required_page
def service_request_details(request: HttpRequest) -> HttpResponse:
    """/service-request-details?id=: the request, with Accept / Contact Client for providers."""
    props = {"requestId": _request_id(request), "viewer": _viewer_props(request.user)}
    return render(request, "pages/service_request_details.html", {"props": props})


@login_required_page
def service_request_edit(request: HttpRequest) -> HttpResponse:
    """/edit-service-request?id=: the edit form with Save Changes and Delete Request."""
    props = {
        "requestId": _request_id(request),
        "viewer": _viewer_props(request.user),
        "categories": [{"id": c.id, "name": c.name} for c in category_list_active()],
        **_date_bounds(),
        "limits": input_limits(ServiceRequestUpdateSerializer),
        "shortNotice": _short_notice_props(),
    }
    return render(request, "pages/edit_service_request.html", {"props": props})
