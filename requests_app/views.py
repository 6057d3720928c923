"""Pages of the requests app: /request-service (the create form)."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext

from accounts.guards import login_required_page
from accounts.models import UserType
from core.addresses import PART_API_NAMES, PART_NAMES
from core.api import input_limits
from core.errors import NotFound
from providers.selectors import provider_get_public, provider_offers, time_off_between
from requests_app.api.serializers import ServiceRequestCreateSerializer, ServiceRequestUpdateSerializer
from requests_app.models import CANCEL_WINDOW_HOURS, CANCELLATION_WINDOW, DIRECT_WINDOW, WINDOW_START, ServiceCategory
from requests_app.selectors import category_list_active, recipients_to_request_for, service_request_to_rebook
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
    cancelled in the app (requests_app.models.still_cancellable): the earliest visit start a
    client may still cancel, as wall-clock time in the site's zone, and when each time window
    starts (the visit start is the date plus its window's start)."""
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    cutoff = (timezone.now() + CANCELLATION_WINDOW).astimezone(zone)
    return {
        "cancelCutoff": cutoff.strftime("%Y-%m-%dT%H:%M"),
        "cancelWindowHours": CANCEL_WINDOW_HOURS,
        "windowStarts": {str(window): start.strftime("%H:%M") for window, start in WINDOW_START.items()},
    }


def _id_param(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "").strip()
    return int(raw) if raw.isdigit() and len(raw) <= 9 else None


def _asked_provider(request: HttpRequest, categories: list[ServiceCategory]) -> tuple[dict | None, int | None]:
    """?provider=<id> (Request this helper on the browse page, Book again on a past booking): the
    verified provider the request is sent to directly (only they may accept it for
    DIRECT_WINDOW), the services she offers (the only ones a direct request may ask for:
    requests_app.services), preselected when she offers just one (else the family picks), the days
    of her time off ahead (dates only, never her note) and her weekly hours, so the form warns of
    the visits she cannot make. An unknown, unverified or malformed id is ignored: the plain form,
    open to every provider."""
    provider_id = _id_param(request, "provider")
    if provider_id is None:
        return None, None
    try:
        provider = provider_get_public(provider_id=provider_id)
    except NotFound:
        return None, None
    if provider.user_id == request.user.pk:
        return None, None  # one's own profile: nobody to ask
    offered = [c for c in categories if provider_offers(provider, c.slug)]
    today = timezone.localdate()
    away = time_off_between(provider, first_day=today, last_day=preferred_date_latest(today))
    asked = {
        "id": provider.pk,
        "firstName": provider.user.first_name or gettext("this provider"),
        "lastName": provider.user.last_name,
        "services": [{"id": c.id, "name": c.display_name} for c in offered],
        "away": [{"firstDay": t.first_day.isoformat(), "lastDay": t.last_day.isoformat()} for t in away],
        # Her weekly hours (none: any time), so the form warns of a visit outside them.
        "hours": [
            {"weekday": h.weekday, "startTime": h.start_time.strftime("%H:%M"), "endTime": h.end_time.strftime("%H:%M")}
            for h in provider.weekly_hours.all()
        ],
    }
    return asked, offered[0].id if len(offered) == 1 else None


def _rebook_prefill(request: HttpRequest, categories: list[ServiceCategory]) -> dict | None:
    """?from=<bookingId> (Book again): the fields of that booking's request to start from (not its
    date). Only a booking in the user's circles; anything else is ignored."""
    booking_id = _id_param(request, "from")
    if booking_id is None:
        return None
    old = service_request_to_rebook(user=request.user, booking_id=booking_id)
    if old is None:
        return None
    active = {c.id for c in categories}
    return {
        "recipientId": old.recipient_id,
        "categoryId": old.category_id if old.category_id in active else None,
        "title": old.title,
        "description": old.description,
        "location": old.location,
        "address": {PART_API_NAMES[name]: getattr(old, name) for name in PART_NAMES},
        "specialRequirements": old.special_requirements,
        "tasks": list(old.tasks or []),
        "estimatedDuration": old.estimated_duration,
        "maxBudget": None if old.max_budget is None else float(old.max_budget),
        "preferredTime": old.preferred_time,
        "urgency": old.urgency,
    }


@login_required_page
def request_service(request: HttpRequest) -> HttpResponse:
    """The create form. Only client accounts may post requests; others see why above the form.
    From a provider's card or a past booking (?provider=<id>) it is sent to them directly and
    preselects their service; Book again (&from=<bookingId>) starts from that booking's request."""
    categories = list(category_list_active())
    asked, category_id = _asked_provider(request, categories)
    props = {
        "askedProvider": asked,
        "directWindowHours": int(DIRECT_WINDOW.total_seconds() // 3600),
        "prefill": _rebook_prefill(request, categories),
        "categories": [
            {"id": c.id, "name": c.display_name, "slug": c.slug, "features": c.features} for c in categories
        ],
        "categoryId": category_id,
        **_date_bounds(),
        "canRequest": request.user.user_type == UserType.CLIENT,
        # Each field's limits and their messages, as the API answers them.
        "limits": input_limits(ServiceRequestCreateSerializer),
        "shortNotice": _short_notice_props(),
        # "Who is this for?": the recipients the user organizes (id null: "Myself", made on posting).
        "recipients": recipients_to_request_for(user=request.user),
    }
    # The names of the services she offers, one phrase for the sentence above the form.
    asked_services = ", ".join(service["name"] for service in asked["services"]) if asked else ""
    return render(
        request, "pages/request-service.html", {"props": props, "asked": asked, "asked_services": asked_services}
    )


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
    return render(request, "pages/service-request-details.html", {"props": props})


@login_required_page
def edit_service_request(request: HttpRequest) -> HttpResponse:
    """/edit-service-request?id=: the edit form with Save Changes and Delete Request."""
    props = {
        "requestId": _request_id(request),
        "viewer": _viewer_props(request.user),
        "categories": [{"id": c.id, "name": c.display_name, "features": c.features} for c in category_list_active()],
        **_date_bounds(),
        "limits": input_limits(ServiceRequestUpdateSerializer),
        "shortNotice": _short_notice_props(),
    }
    return render(request, "pages/edit-service-request.html", {"props": props})
