"""Writes of service requests while no helper has taken them: create, edit, delete, cancel,
expire, and a direct request's decline and opening to all (ARCHITECTURE.md "State machines").

This module moves ServiceRequest.status while the request is open. Accepting a request creates a
booking (bookings.services.service_request_accept); from then on the request's status moves with
its bookings, in bookings.lifecycle (booked, then completed or cancelled).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import dateformat, timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, pgettext

from accounts.models import User, UserType
from circles.models import CareRecipient
from circles.notices import notice_send
from circles.selectors import is_organizer, organized_recipient_ids
from circles.services import address_moved, recipient_for_self
from core.addresses import PART_API_NAMES, PART_LABELS, PART_LIMITS, PART_NAMES, parse_one_line
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.events import OffersMade, ServiceRequestPosted, publish
from core.geo import shown_miles
from core.geocoding import PlaceStatus
from core.notifications import NoticeKind
from providers.models import Provider, Specialty
from providers.selectors import provider_get_public, provider_offers
from requests_app import selectors
from requests_app.models import (
    DIRECT_WINDOW,
    OFFER_FIRST,
    OFFER_ROUNDS,
    OFFER_WIDEN,
    SERIES_MAX_VISITS,
    SERIES_MIN_VISITS,
    WINDOW_TIMES,
    Offer,
    OfferAnswer,
    OfferedTo,
    Repeat,
    RequestStatus,
    ServiceCategory,
    ServiceRequest,
    Urgency,
)
from requests_app.series import series_length

# Fields a client may change on an open request (model field names).
EDITABLE_FIELDS = (
    "category",
    "title",
    "description",
    "preferred_date",
    "preferred_time",
    "urgency",
    # The one-line form (read into the parts, best effort) or the parts themselves.
    "location",
    *PART_NAMES,
    "special_requirements",
    "tasks",
    "estimated_duration",
    "max_budget",
    "repeat",
    "repeat_count",
    "repeat_until",
)

# The fields that make a request a series: checked together (series_problems).
SERIES_FIELDS = ("preferred_date", "repeat", "repeat_count", "repeat_until")


# The rules of a request's fields (spec section 5), owned here so the API, the Django admin and the
# commands obey the same ones. Errors name the API's fields (camelCase), the spec's texts.
TITLE_MAX = 200
TEXT_MAX = 5000
LOCATION_MAX = 255
DESCRIPTION_MIN = 10
DURATION_MIN = 15
DURATION_MIN_ON_EDIT = 1  # the edit page's rule (spec section 5)
DURATION_STEP = 15
DURATION_MAX = 24 * 60
BUDGET_MIN = 0
BUDGET_STEP = 5
BUDGET_MAX = 99_999

TITLE_REQUIRED = "Title is required"
TITLE_TOO_LONG = gettext_lazy("Title can be at most 200 characters.")
DESCRIPTION_TOO_SHORT = "Description must be at least 10 characters"
DESCRIPTION_TOO_LONG = gettext_lazy("Description can be at most 5,000 characters.")
CATEGORY_REQUIRED = "Category is required"
LOCATION_REQUIRED = "Location is required"
LOCATION_TOO_LONG = gettext_lazy("Location can be at most 255 characters.")
SPECIAL_REQUIREMENTS_TOO_LONG = gettext_lazy("Special requirements can be at most 5,000 characters.")
DURATION_TOO_SHORT = "Duration must be at least 15 minutes"
DURATION_TOO_SHORT_ON_EDIT = "Duration must be at least 1 minute"
DURATION_TOO_LONG = gettext_lazy("Duration can be at most 24 hours.")
DURATION_NOT_IN_STEPS = "Duration must be in steps of 15 minutes"
BUDGET_NEGATIVE = gettext_lazy("Budget cannot be negative.")
BUDGET_TOO_HIGH = gettext_lazy("Budget can be at most $99,999.")
BUDGET_NOT_IN_STEPS = "Budget must be in steps of $5"
PREFERRED_DATE_REQUIRED = gettext_lazy("Please choose a preferred date.")
PREFERRED_DATE_PAST = gettext_lazy("Preferred date cannot be in the past.")
PREFERRED_DATE_TOO_FAR = gettext_lazy("Preferred date must be within the next 12 months.")
REPEAT_NEEDS_DATE = gettext_lazy("A repeating request needs the date of its first visit.")
REPEAT_NEEDS_END = gettext_lazy("Choose how many visits, or the date of the last one.")
REPEAT_COUNT_OR_UNTIL = gettext_lazy("Choose either a number of visits or an end date, not both.")
REPEAT_TOO_FEW = format_lazy(gettext_lazy("A series needs at least {count} visits."), count=SERIES_MIN_VISITS)
REPEAT_UNTIL_BEFORE_FIRST = gettext_lazy("The end date must be after the first visit.")
REPEAT_UNTIL_ONE_VISIT = gettext_lazy("This end date leaves only one visit: choose a later date.")
REPEAT_TOO_MANY = format_lazy(
    gettext_lazy("A series can have at most {count} visits; this one would have {{n}}."), count=SERIES_MAX_VISITS
)
PART_TOO_LONG = "{label} can be at most {max} characters."
REPEAT_NOT_CHOSEN = gettext_lazy("Choose how often the visits repeat first.")
RECIPIENT_UNKNOWN = gettext_lazy("Choose someone whose care you organize.")
REQUESTED_PROVIDER_UNKNOWN = gettext_lazy("This helper is not available on Kindly. Please choose another helper.")
REQUESTED_PROVIDER_SELF = gettext_lazy("You cannot send a request to yourself.")
REQUESTED_SERVICE_NOT_OFFERED = "{name} does not offer {service}. {name} offers: {offered}."
DECLINE_REASON_MAX = 500
DECLINE_REASON_REQUIRED = gettext_lazy("Please say why you cannot take this request.")
DECLINE_REASON_TOO_LONG = gettext_lazy("The reason can be at most 500 characters.")
DECLINE_NOT_YOURS = gettext_lazy("Only the helper this request was sent to can decline it.")
DECLINE_TWICE = gettext_lazy("You have already declined this request.")
ORGANIZERS_ONLY = gettext_lazy("Only an organizer of this care circle can change this request.")
# The family's task list: a few short items the helper can tick off at check-out.
TASKS_MAX = 10
TASK_MAX_LENGTH = 120
TASKS_TOO_MANY = gettext_lazy("A visit can have at most 10 tasks.")
TASK_TOO_LONG = gettext_lazy("Each task can be at most 120 characters.")
TASK_NOT_TEXT = gettext_lazy("Each task must be a few words of text.")
TASKS_REPEATED = gettext_lazy("Each task can be listed once.")


def clean_tasks(value: Any) -> list[str]:
    """The task list as it is kept: each item's spaces tidied, empty items dropped (the order kept)."""
    if not isinstance(value, list):
        return []
    return [" ".join(item.split()) for item in value if isinstance(item, str) and item.strip()]


def tasks_problem(value: Any) -> str:
    """What is wrong with a task list: at most TASKS_MAX items of text, each at most TASK_MAX_LENGTH, no repeats."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return TASK_NOT_TEXT
    items = clean_tasks(value)
    if len(items) > TASKS_MAX:
        return TASKS_TOO_MANY
    if any(len(item) > TASK_MAX_LENGTH for item in items):
        return TASK_TOO_LONG
    if len({item.casefold() for item in items}) < len(items):
        return TASKS_REPEATED
    return ""


def preferred_date_latest(today: dt.date) -> dt.date:
    """The last day a visit may be asked for: the same day next year (February 28 for the 29th)."""
    try:
        return today.replace(year=today.year + 1)
    except ValueError:
        return today.replace(year=today.year + 1, day=28)


def preferred_date_problem(value: dt.date | None, *, today: dt.date | None = None) -> str:
    """What is wrong with a preferred date, or "": from today (site time zone) to a year ahead.

    No date is fine here; whether one is required is the caller's rule (create requires one).
    """
    if value is None:
        return ""
    today = today or timezone.localdate()
    if value < today:
        return PREFERRED_DATE_PAST
    if value > preferred_date_latest(today):
        return PREFERRED_DATE_TOO_FAR
    return ""


def duration_problem(minutes: int, *, creating: bool = True) -> str:
    """A visit's length: 15 minutes to 24 hours in steps of 15 on create; from 1 minute on edit."""
    if creating and minutes < DURATION_MIN:
        return DURATION_TOO_SHORT
    if minutes < DURATION_MIN_ON_EDIT:
        return DURATION_TOO_SHORT_ON_EDIT
    if minutes > DURATION_MAX:
        return DURATION_TOO_LONG
    if creating and minutes % DURATION_STEP:
        return DURATION_NOT_IN_STEPS
    return ""


def budget_problem(amount: Decimal | int | None, *, creating: bool = True) -> str:
    """An optional maximum budget: $0 to $99,999, in steps of $5 on create."""
    if amount is None:
        return ""
    if amount < BUDGET_MIN:
        return BUDGET_NEGATIVE
    if amount > BUDGET_MAX:
        return BUDGET_TOO_HIGH
    if creating and Decimal(amount) % BUDGET_STEP:
        return BUDGET_NOT_IN_STEPS
    return ""


def category_problem(category: ServiceCategory | None) -> str:
    """A request needs one of the categories offered now (an active one)."""
    return "" if category is not None and category.is_active else CATEGORY_REQUIRED


def _too_many(n: int) -> str:
    return REPEAT_TOO_MANY.format(n=n)


def series_problems(values: dict[str, Any]) -> dict[str, list[str]]:
    """What is wrong with a request's repeat, {API field: [messages]} (the whole state: the caller
    merges an edit's changes into the request first). A repeating request needs its first date and
    exactly one end, a number of visits (2 to 26) or a date after the first; no more than 26 visits."""
    first = values.get("preferred_date")
    repeat = values.get("repeat") or ""
    count, until = values.get("repeat_count"), values.get("repeat_until")
    if not repeat:
        errors = {}
        if count is not None:
            errors["repeatCount"] = [REPEAT_NOT_CHOSEN]
        if until is not None:
            errors["repeatUntil"] = [REPEAT_NOT_CHOSEN]
        return errors
    if count is not None and until is not None:
        return {"repeatCount": [REPEAT_COUNT_OR_UNTIL], "repeatUntil": [REPEAT_COUNT_OR_UNTIL]}
    if count is None and until is None:
        return {"repeatCount": [REPEAT_NEEDS_END]}
    if count is not None:
        if count < SERIES_MIN_VISITS:
            return {"repeatCount": [REPEAT_TOO_FEW]}
        if count > SERIES_MAX_VISITS:
            return {"repeatCount": [_too_many(count)]}
    if first is None:
        return {"preferredDate": [REPEAT_NEEDS_DATE]}
    if until is not None:
        if until <= first:
            return {"repeatUntil": [REPEAT_UNTIL_BEFORE_FIRST]}
        n = series_length(first, repeat, until=until)
        if n < SERIES_MIN_VISITS:
            return {"repeatUntil": [REPEAT_UNTIL_ONE_VISIT]}
        if n > SERIES_MAX_VISITS:
            return {"repeatUntil": [_too_many(n)]}
    return {}


def _text_problem(
    value: str, *, required: str, max_length: int, too_long: str, min_length: int = 0, short: str = ""
) -> str:
    text = (value or "").strip()
    if not text and required:
        return required
    if len(text) < min_length:
        return short
    if len(value or "") > max_length:
        return too_long
    return ""


# A request's model fields -> the API's names, which the errors use.
API_FIELD_NAMES = {
    "title": "title",
    "description": "description",
    "category": "categoryId",
    "location": "location",
    "special_requirements": "specialRequirements",
    "tasks": "tasks",
    "estimated_duration": "estimatedDuration",
    "max_budget": "maxBudget",
    "preferred_date": "preferredDate",
    "repeat": "repeat",
    "repeat_count": "repeatCount",
    "repeat_until": "repeatUntil",
}


def service_request_problems(values: dict[str, Any], *, creating: bool) -> dict[str, list[str]]:
    """What is wrong with a request's fields, {API field: [messages]}; empty when all is well.

    `values` maps model field names (EDITABLE_FIELDS) to values; only the fields given are checked,
    so an edit checks what it changes. Create (`creating`) requires a preferred date and takes the
    stricter duration and budget steps; edit follows the edit page's rules (spec section 5). The
    repeat is checked as a whole (series_problems) when `values` holds all of SERIES_FIELDS.
    """
    checks = {
        "title": lambda v: _text_problem(v, required=TITLE_REQUIRED, max_length=TITLE_MAX, too_long=TITLE_TOO_LONG),
        "description": lambda v: _text_problem(
            v,
            required=DESCRIPTION_TOO_SHORT,
            max_length=TEXT_MAX,
            too_long=DESCRIPTION_TOO_LONG,
            min_length=DESCRIPTION_MIN,
            short=DESCRIPTION_TOO_SHORT,
        ),
        "category": category_problem,
        "location": lambda v: _text_problem(
            v, required=LOCATION_REQUIRED, max_length=LOCATION_MAX, too_long=LOCATION_TOO_LONG
        ),
        "special_requirements": lambda v: _text_problem(
            v, required="", max_length=TEXT_MAX, too_long=SPECIAL_REQUIREMENTS_TOO_LONG
        ),
        "tasks": tasks_problem,
        "estimated_duration": lambda v: duration_problem(v, creating=creating),
        "max_budget": lambda v: budget_problem(v, creating=creating),
        "preferred_date": lambda v: PREFERRED_DATE_REQUIRED if creating and v is None else preferred_date_problem(v),
    }
    errors: dict[str, list[str]] = {}
    for name, check in checks.items():
        if name in values:
            problem = check(values[name])
            if problem:
                errors[API_FIELD_NAMES[name]] = [problem]
    errors.update(address_problems({name: values[name] for name in PART_NAMES if name in values}))
    if all(name in values for name in SERIES_FIELDS):
        # The series' own words win: "needs the date of its first visit" over "choose a date".
        errors.update(series_problems(values))
    return errors


def address_problems(parts: dict[str, str]) -> dict[str, list[str]]:
    """What is wrong with an address's parts (those given): each within its length, and, when all
    are given, not all blank ("Location is required", on the API's one-line name)."""
    errors: dict[str, list[str]] = {}
    for name, value in parts.items():
        if len(value or "") > PART_LIMITS[name]:
            errors[PART_API_NAMES[name]] = [PART_TOO_LONG.format(label=PART_LABELS[name], max=PART_LIMITS[name])]
    if len(parts) == len(PART_NAMES) and not any((value or "").strip() for value in parts.values()):
        errors["location"] = [LOCATION_REQUIRED]
    return errors


def address_parts(*, location: str | None = None, parts: dict[str, str] | None = None) -> dict[str, str] | None:
    """The address's parts from the parts given (any missing one blank), else from the one-line
    location (read best effort: core.addresses.parse_one_line); None when neither is given."""
    if parts is not None and any((value or "").strip() for value in parts.values()):
        return {name: " ".join((parts.get(name) or "").split()) for name in PART_NAMES}
    if location is not None and location.strip():
        return parse_one_line(location).as_dict()
    if parts is not None or location is not None:
        return dict.fromkeys(PART_NAMES, "")
    return None


def _check_can_request(actor: User) -> None:
    if actor.is_admin or actor.user_type == UserType.PROVIDER:
        raise PermissionDenied(
            gettext("Only client accounts can request services. Switch to Client to request a service.")
        )


def check_organizer(*, actor: User, recipient_id: int, message: str = ORGANIZERS_ONLY) -> None:
    """Organizer-only actions: the recipient's organizers may; anyone else who can see the
    item (a plain member of the circle, a provider, an admin) gets 403. Those who cannot see it get
    404 from the selectors the views ask first."""
    if not is_organizer(user_id=actor.pk, recipient_id=recipient_id):
        raise PermissionDenied(message)


def _check_owner(service_request: ServiceRequest, actor: User) -> None:
    """Edit, delete and cancel: an organizer of the recipient's circle."""
    check_organizer(actor=actor, recipient_id=service_request.recipient_id)


def recipient_for_request(*, actor: User, recipient_id: int | None) -> CareRecipient:
    """Whom a new request is for: one of the recipients `actor` organizes, or (no id) `actor`
    themself (their own recipient, made on first use). Any other id: 400 on recipientId."""
    if recipient_id is None:
        return recipient_for_self(user=actor)
    recipient = CareRecipient.objects.filter(pk=recipient_id, pk__in=organized_recipient_ids(user_id=actor.pk)).first()
    if recipient is None:
        raise InvalidInput(RECIPIENT_UNKNOWN, errors={"recipientId": [RECIPIENT_UNKNOWN]})
    return recipient


def _check_open(service_request: ServiceRequest, doing: str) -> None:
    if service_request.status != RequestStatus.OPEN:
        raise Conflict(
            gettext("Only open requests can be %(doing)s; this one is %(status)s.")
            % {"doing": doing, "status": service_request.status}
        )


def service_request_lock(*, service_request_id: int) -> ServiceRequest:
    """Re-read a request under a row lock (caller is inside transaction.atomic)."""
    try:
        return ServiceRequest.objects.select_for_update(of=("self",)).get(pk=service_request_id)
    except ServiceRequest.DoesNotExist:
        raise NotFound(gettext("Service request not found.")) from None


def service_request_create(
    *,
    client: User,
    category: ServiceCategory,
    title: str,
    description: str,
    preferred_date: dt.date | None,
    location: str = "",
    preferred_time: str = "",
    urgency: str = Urgency.NORMAL,
    special_requirements: str = "",
    tasks: list[str] | None = None,
    estimated_duration: int = 60,
    max_budget: Decimal | None = None,
    repeat: str = Repeat.NONE,
    repeat_count: int | None = None,
    repeat_until: dt.date | None = None,
    recipient: CareRecipient | None = None,
    recipient_id: int | None = None,
    requested_provider_id: int | None = None,
    only_requested_provider: bool = False,
    address: dict[str, str] | None = None,
) -> ServiceRequest:
    """A client posts a request for a care recipient they organize (`recipient`, or by
    `recipient_id`; themself when neither is given); it starts open. The fields follow
    service_request_problems (create's rules: a preferred date from today to a year ahead,
    15-minute and $5 steps, an active category; a repeat as series_problems). Where: `address`'s
    parts, else the one-line `location` read into parts; neither: the recipient's address. A
    recipient with no address yet keeps this request's, so the next request starts from it.

    `requested_provider_id` sends it to one verified, active provider (not the client): only they
    may accept it for DIRECT_WINDOW, and only they ever when `only_requested_provider`; they are
    told at once. Any other id: 400 on requestedProviderId."""
    _check_can_request(client)
    requested = _requested_provider(client=client, provider_id=requested_provider_id)
    if recipient is None:
        recipient = recipient_for_request(actor=client, recipient_id=recipient_id)
    elif not is_organizer(user_id=client.pk, recipient_id=recipient.pk):
        raise InvalidInput(RECIPIENT_UNKNOWN, errors={"recipientId": [RECIPIENT_UNKNOWN]})
    if (location or "").strip() and not (address and any(address.values())):
        InvalidInput.check(service_request_problems({"location": location}, creating=True))
    parts = address_parts(location=location, parts=address)
    if parts is None or not any(parts.values()):
        parts = {name: getattr(recipient, name) for name in PART_NAMES}
    values = {
        "category": category,
        "title": title,
        "description": description,
        "preferred_date": preferred_date,
        "preferred_time": preferred_time,
        "urgency": urgency,
        **parts,
        "special_requirements": special_requirements,
        "tasks": tasks or [],
        "estimated_duration": estimated_duration,
        "max_budget": max_budget,
        "repeat": repeat or Repeat.NONE,
        "repeat_count": repeat_count,
        "repeat_until": repeat_until,
    }
    InvalidInput.check(service_request_problems(values, creating=True))
    values["tasks"] = clean_tasks(values["tasks"])
    direct = {}
    if requested is not None:
        _check_offers(requested, category)
        direct = {
            "requested_provider": requested,
            "direct_until": timezone.now() + DIRECT_WINDOW,
            "only_requested_provider": bool(only_requested_provider),
        }
    with transaction.atomic():
        if not any(getattr(recipient, name) for name in PART_NAMES):
            for name in PART_NAMES:
                setattr(recipient, name, parts[name])
            recipient.save(update_fields=[*PART_NAMES, *address_moved(recipient), "updated_at"])
        # Offered to the helpers near the person cared for (offers_send, from Celery once this
        # commits); a request sent to one helper is hers, and then every helper's, as before.
        offered_to = OfferedTo.ALL if requested is not None else OfferedTo.OFFERS
        service_request = ServiceRequest.objects.create(
            client=client, recipient=recipient, **values, **direct, offered_to=offered_to
        )
        if requested is not None:
            _tell_requested_provider(service_request, requested)
        else:
            publish(ServiceRequestPosted(service_request_id=service_request.pk))
        return service_request


def _requested_provider(*, client: User, provider_id: int | None) -> Provider | None:
    """The provider a new request is sent to: verified and active, not the client themself."""
    if provider_id is None:
        return None
    if Provider.objects.filter(pk=provider_id, user=client).exists():
        raise InvalidInput(REQUESTED_PROVIDER_SELF, errors={"requestedProviderId": [REQUESTED_PROVIDER_SELF]})
    try:
        return provider_get_public(provider_id=provider_id)
    except NotFound:
        raise InvalidInput(
            REQUESTED_PROVIDER_UNKNOWN, errors={"requestedProviderId": [REQUESTED_PROVIDER_UNKNOWN]}
        ) from None


def _check_offers(provider: Provider, category: ServiceCategory) -> None:
    """A request sent to one helper asks for a service she offers (400 naming hers)."""
    if provider_offers(provider, category.slug):
        return
    name = provider.user.first_name or "This helper"
    offered = [label for value, label in Specialty.choices if value in (provider.specialties or [])]
    message = REQUESTED_SERVICE_NOT_OFFERED.format(name=name, service=category.name, offered=", ".join(offered))
    raise InvalidInput(message, errors={"categoryId": [message]})


def direct_until_text(moment: dt.datetime) -> str:
    """'Tuesday, November 24 at 9:00 AM', in the site's time zone."""
    return dateformat.format(timezone.localtime(moment), r"l, F j \a\t g:i A")


def _tell_requested_provider(service_request: ServiceRequest, provider: Provider) -> None:
    notice_send(
        NoticeKind.DIRECT_REQUEST,
        helpers=[provider.user],
        facts={
            "title": service_request.title,
            "client": service_request.client.first_name or "A client",
            "until": direct_until_text(service_request.direct_until),
            "only": service_request.only_requested_provider,
            "request_id": service_request.pk,
        },
    )


def service_request_update(*, service_request_id: int, actor: User, changes: dict[str, Any]) -> ServiceRequest:
    """The client edits their open request. `changes` maps model field names (EDITABLE_FIELDS) to values.

    The repeat is checked with the request's other series fields as they will be after the edit
    (a new first date may push an end date's series past 26 visits)."""
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"Not editable: {sorted(unknown)}")
    if "repeat" in changes:
        changes = {**changes, "repeat": changes["repeat"] or Repeat.NONE}
    if "location" in changes or set(PART_NAMES) & set(changes):
        # Where, as parts: the parts given win over the one-line form; a one-line form alone is read.
        location = changes.get("location")
        given = {name: changes[name] for name in PART_NAMES if name in changes} or None
        if location and not (given and any(given.values())):
            InvalidInput.check(service_request_problems({"location": location}, creating=False))
        changes = {name: value for name, value in changes.items() if name != "location" and name not in PART_NAMES}
        changes.update(address_parts(location=location, parts=given) or {})
    InvalidInput.check(service_request_problems(changes, creating=False))
    if "tasks" in changes:
        changes = {**changes, "tasks": clean_tasks(changes["tasks"])}
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, pgettext("request state change", "edited"))
        if set(SERIES_FIELDS) & set(changes):
            after = {name: changes.get(name, getattr(service_request, name)) for name in SERIES_FIELDS}
            InvalidInput.check(series_problems(after))
        for name, value in changes.items():
            setattr(service_request, name, value)
        service_request.save(update_fields=[*changes, "updated_at"])
    return service_request


def service_request_delete(*, service_request_id: int, actor: User) -> None:
    """The client deletes their open request (an open request has no booking yet).

    It is gone for everyone but staff: the row stays, status "deleted" ("Deleted by client" in the
    admin's requests tab), so that staff can see what happened to it; its address and notes for
    helpers are erased now. The account purge removes the row with the rest of the client's data.
    """
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, pgettext("request state change", "deleted"))
        service_request.status = RequestStatus.DELETED
        erased = ["street", "unit", "town", "state", "zip_code", "special_requirements"]
        for name in erased:
            setattr(service_request, name, "")
        service_request.save(update_fields=["status", *erased, "updated_at"])


def service_request_cancel(*, service_request_id: int, actor: User) -> ServiceRequest:
    """The client cancels their open request (open -> cancelled); it stays in their history."""
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, pgettext("request state change", "cancelled"))
        service_request.status = RequestStatus.CANCELLED
        service_request.save(update_fields=["status", "updated_at"])
    return service_request


def service_request_expire(*, service_request_id: int, today: dt.date) -> bool:
    """Cancel an open request whose preferred date is before `today` (site time zone); tell the client.

    Safe to repeat and to race with an accept: the row is re-read under lock and left alone
    (False) unless it is still open with a past preferred date.
    """
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_for_update(of=("self",))
            .select_related("client")
            .filter(pk=service_request_id)
            .first()
        )
        if (
            service_request is None
            or service_request.status != RequestStatus.OPEN
            or service_request.preferred_date is None
            or service_request.preferred_date >= today
        ):
            return False
        service_request.status = RequestStatus.CANCELLED
        service_request.save(update_fields=["status", "updated_at"])
        day = service_request.preferred_date
        notice_send(
            NoticeKind.REQUEST_EXPIRED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "day_on": day.isoformat(),
                "client_id": service_request.client_id,
            },
        )
    return True


# ---------------------------------------------------------------- direct requests


def decline_reason_problem(reason: str) -> str:
    text = (reason or "").strip()
    if not text:
        return DECLINE_REASON_REQUIRED
    if len(text) > DECLINE_REASON_MAX:
        return DECLINE_REASON_TOO_LONG
    return ""


def service_request_decline(*, service_request_id: int, actor: User, reason: str) -> ServiceRequest:
    """The provider a request was sent to declines it, saying why. It is cancelled when the client
    asked for only them; otherwise it opens to every provider at once. The circle is told why."""
    InvalidInput.check({"reason": [problem]} if (problem := decline_reason_problem(reason)) else {})
    reason = reason.strip()
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        provider = (
            Provider.objects.select_related("user").filter(pk=service_request.requested_provider_id).first()
            if service_request.requested_provider_id
            else None
        )
        if provider is None or provider.user_id != actor.pk:
            raise PermissionDenied(DECLINE_NOT_YOURS)
        _check_open(service_request, pgettext("request state change", "declined"))
        if service_request.declined_at is not None:
            raise Conflict(DECLINE_TWICE)
        now = timezone.now()
        service_request.declined_at = now
        service_request.decline_reason = reason
        fields = ["declined_at", "decline_reason", "updated_at"]
        cancelled = service_request.only_requested_provider
        if cancelled:
            service_request.status = RequestStatus.CANCELLED
            fields.append("status")
        else:
            service_request.direct_opened_at = now
            fields.append("direct_opened_at")
        service_request.save(update_fields=fields)
        notice_send(
            NoticeKind.DIRECT_REQUEST_DECLINED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "client_id": service_request.client_id,
                "provider": provider.user.first_name or "The helper",
                "reason": reason,
                "cancelled": cancelled,
            },
        )
    return service_request


def service_request_open_to_all(*, service_request_id: int, now: dt.datetime) -> bool:
    """A direct request's window ended without an answer: it is open to every provider now (by the
    clock already: requests_app.selectors.open_to_all); tell the circle, once. From here providers
    hear of it as a new request (notifications' new-request notices read direct_opened_at).

    Safe to repeat and to race with an accept or a decline: the row is re-read under lock and left
    alone (False) unless it is still open, lapsed, unanswered and not opened yet.
    """
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_for_update(of=("self",))
            .select_related("client")
            .filter(pk=service_request_id)
            .first()
        )
        if (
            service_request is None
            or service_request.status != RequestStatus.OPEN
            or service_request.only_requested_provider
            or service_request.direct_until is None
            or service_request.direct_until > now
            or service_request.declined_at is not None
            or service_request.direct_opened_at is not None
        ):
            return False
        service_request.direct_opened_at = now
        service_request.save(update_fields=["direct_opened_at", "updated_at"])
        provider = (
            Provider.objects.select_related("user").filter(pk=service_request.requested_provider_id).first()
            if service_request.requested_provider_id
            else None
        )
        notice_send(
            NoticeKind.DIRECT_REQUEST_OPENED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "client_id": service_request.client_id,
                "provider": (provider.user.first_name if provider else "") or "The helper you asked for",
            },
        )
    return True


# ---------------------------------------------------------------- offers
# A request posted for a placed recipient is offered to the best few helpers who can take it
# (requests_app.selectors.offer_candidates), each told by email and text as she chose; only they see
# it and may accept it. Unanswered for offer_answer_time, it widens to the next few and staff are
# told; after OFFER_ROUNDS rounds, or when nobody near can take it, it opens to every helper who can
# (OfferedTo.ALL). A recipient who could not be placed: offered by town (every helper of the
# service), flagged to staff. Runs from Celery (requests_app.tasks), never in the request's create.

# How long a round waits for the recipient's place (its geocoding runs after her address is saved).
PLACE_WAIT = dt.timedelta(minutes=10)
WAITING_FOR_PLACE = -1


def on_service_request_posted(event: ServiceRequestPosted) -> None:
    """ServiceRequestPosted (on commit): its first round of offers, from Celery."""
    from requests_app.tasks import offer_request  # noqa: PLC0415 (the task module imports this one)

    offer_request.delay(event.service_request_id)


def _clock(moment: dt.time) -> str:
    return dateformat.time_format(moment, "g:i A")


def _when_words(service_request: ServiceRequest) -> str:
    """ "Tuesday, March 3, 8:00 AM to 12:00 PM" (the family's window, on the recipient's clock)."""
    start, end = WINDOW_TIMES[service_request.preferred_time or "flexible"]
    day = service_request.preferred_date
    times = f"{_clock(start)} to {_clock(end)}"
    return f"{day:%A}, {day:%B} {day.day}, {times}" if day else times


def _alert_staff(service_request: ServiceRequest, reason: str, *, round_: int = 0) -> None:
    notice_send(
        NoticeKind.MATCHING_ALERTS,
        facts={"title": service_request.title, "town": service_request.town, "reason": reason, "round": round_},
        key=f"request:{service_request.pk}:{reason}:{round_}",
    )


def _open_to_all(service_request: ServiceRequest, reason: str, *, by_town: bool = False) -> None:
    service_request.offered_to = OfferedTo.ALL
    service_request.offers_answer_by = None
    service_request.offered_by_town = by_town
    service_request.widened_at = timezone.now()  # providers hear of it from now (new-request notices)
    service_request.save(
        update_fields=["offered_to", "offers_answer_by", "offered_by_town", "widened_at", "updated_at"]
    )
    _alert_staff(service_request, reason)


def offers_send(*, service_request_id: int, now: dt.datetime | None = None) -> int:
    """The next round of offers of an open request offered to a few (OfferedTo.OFFERS) whose round
    is due (none made yet, or the last one unanswered by offers_answer_by): offers made, and
    OffersMade published (each helper told, and staff when it widens, from Celery after the commit:
    offers_made_tell). Returns how many helpers were offered it (0: none, or it was
    not due, or it opened to all), WAITING_FOR_PLACE while the recipient is still being placed.

    Safe to repeat and to race with an accept, an edit or a cancel: the row is re-read under lock."""
    now = now or timezone.now()
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_for_update(of=("self",))
            .select_related("recipient", "category")
            .filter(pk=service_request_id)
            .first()
        )
        if (
            service_request is None
            or service_request.status != RequestStatus.OPEN
            or service_request.offered_to != OfferedTo.OFFERS
            or (service_request.offers_answer_by is not None and service_request.offers_answer_by > now)
        ):
            return 0
        recipient = service_request.recipient
        if recipient.latitude is None or recipient.longitude is None:
            if recipient.place_status == PlaceStatus.PENDING and service_request.created_at > now - PLACE_WAIT:
                return WAITING_FOR_PLACE
            _open_to_all(service_request, "not_placed", by_town=True)
            return 0
        round_ = service_request.offer_round + 1
        if round_ > OFFER_ROUNDS:
            _open_to_all(service_request, "no_helpers")
            return 0
        picks = selectors.offer_candidates(service_request, count=OFFER_FIRST if round_ == 1 else OFFER_WIDEN)
        if not picks:
            _open_to_all(service_request, "no_helpers")
            return 0
        answer_by = now + selectors.offer_answer_time(service_request)
        Offer.objects.bulk_create(
            [
                Offer(
                    service_request=service_request,
                    provider=provider,
                    round=round_,
                    rank=rank,
                    miles=miles,
                    offered_at=now,
                )
                for rank, (provider, miles) in enumerate(picks, start=1)
            ]
        )
        service_request.offer_round = round_
        service_request.offers_answer_by = answer_by
        service_request.save(update_fields=["offer_round", "offers_answer_by", "updated_at"])
        # The helpers (and staff, when it widens) are told from Celery after the commit: notices
        # write rows of their own and push to sockets, which the row lock need not wait for.
        publish(OffersMade(service_request_id=service_request.pk, round=round_))
    return len(picks)


OFFER_DECLINE_NOT_YOURS = "This request was not offered to you."
OFFER_ANSWERED = "You have already answered this offer."


def offer_decline(*, service_request_id: int, actor: User, reason: str = "") -> int:
    """A helper says "Not for me" to a request offered to her (an optional reason, at most
    DECLINE_REASON_MAX characters): her offer is answered (it counts in her answer speed), the
    request leaves her list, and the next best helper free then is offered it at once in the same
    round (told from Celery after the commit, OffersMade). With nobody left to offer it and nobody
    else waiting, the round ends now and the sweep widens it (offers_send). Returns how many
    helpers were offered it in her place (0 or 1). 404: not offered to her; 409: answered already,
    or the request is no longer open."""
    reason = (reason or "").strip()
    if len(reason) > DECLINE_REASON_MAX:
        raise InvalidInput(DECLINE_REASON_TOO_LONG, errors={"reason": [DECLINE_REASON_TOO_LONG]})
    now = timezone.now()
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        offer = (
            Offer.objects.select_for_update()
            .filter(service_request_id=service_request.pk, provider__user_id=actor.pk)
            .first()
        )
        if offer is None:
            raise NotFound(OFFER_DECLINE_NOT_YOURS)
        if offer.answer != OfferAnswer.WAITING:
            raise Conflict(OFFER_ANSWERED)
        _check_open(service_request, "answered")
        offer.answer, offer.answered_at, offer.decline_reason = OfferAnswer.DECLINED, now, reason
        offer.save(update_fields=["answer", "answered_at", "decline_reason"])
        if service_request.offered_to != OfferedTo.OFFERS:
            return 0  # open to every helper already: nobody to offer it to in her place
        service_request = ServiceRequest.objects.select_related("recipient", "category").get(pk=service_request.pk)
        picks = selectors.offer_candidates(service_request, count=1)
        if picks:
            provider, miles = picks[0]
            last = Offer.objects.filter(service_request_id=service_request.pk).order_by("-rank").first()
            Offer.objects.create(
                service_request=service_request,
                provider=provider,
                round=offer.round,
                rank=(last.rank if last else 0) + 1,
                miles=miles,
                offered_at=now,
            )
            publish(OffersMade(service_request_id=service_request.pk, round=offer.round))
        elif not Offer.objects.filter(service_request_id=service_request.pk, answer=OfferAnswer.WAITING).exists():
            # Nobody else is considering it: its round is over now (beat's sweep, requests_to_offer).
            service_request.offers_answer_by = now
            service_request.save(update_fields=["offers_answer_by", "updated_at"])
    return len(picks)


def on_offers_made(event: OffersMade) -> None:
    """OffersMade (on commit): the helpers of the round are told, from Celery."""
    from requests_app.tasks import offers_tell  # noqa: PLC0415 (the task module imports this one)

    offers_tell.delay(event.service_request_id, event.round)


def offers_made_tell(*, service_request_id: int, round_: int) -> int:
    """Tell each helper offered the request in this round (the catalogue's request_offered notice,
    in the app and by email and text as she chose), and staff when the round widened it. Only while
    the request is open and her offer unanswered: one accepted before the task ran tells nobody more.
    Safe to repeat (each notice's key is its request and helper). Returns how many were told."""
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_related("client")
            .filter(pk=service_request_id, status=RequestStatus.OPEN)
            .first()
        )
        if service_request is None:
            return 0
        offers = list(
            Offer.objects.filter(service_request=service_request, round=round_, answer=OfferAnswer.WAITING)
            .select_related("provider__user")
            .order_by("rank")
        )
        if not offers:
            return 0
        when = _when_words(service_request)
        # When the round ends, as offers_send set it (a helper offered it in another's place since
        # has until then too).
        answer_by = service_request.offers_answer_by or offers[0].offered_at + selectors.offer_answer_time(
            service_request
        )
        for offer in offers:
            notice_send(
                NoticeKind.REQUEST_OFFERED,
                helpers=[offer.provider.user],
                facts={
                    "title": service_request.title,
                    "when": when,
                    "town": service_request.town or service_request.zip_code,
                    "miles": miles_words(offer.miles),
                    "request_id": service_request.pk,
                    "answer_by": direct_until_text(answer_by),
                },
                key=f"request:{service_request.pk}:provider:{offer.provider_id}",
            )
        if round_ > 1:
            _alert_staff(service_request, "unanswered", round_=round_)
    return len(offers)


def miles_words(miles: float | None) -> str:
    """ "3.2 miles away" as the pages say it (frontend/lib/format.ts milesAway), "" when unknown."""
    if miles is None:
        return ""
    shown = shown_miles(miles)
    if shown < 0.1:
        return "Less than 0.1 miles away"
    return f"{shown:g} {'mile' if shown == 1 else 'miles'} away"


def offer_accepted(*, service_request: ServiceRequest, provider: Provider, now: dt.datetime) -> None:
    """Her accept answers her offer; the others' offers close unanswered (inside the accept's
    transaction, which holds the request's row)."""
    Offer.objects.filter(service_request=service_request, provider=provider, answered_at__isnull=True).update(
        answered_at=now, answer=OfferAnswer.ACCEPTED
    )
    Offer.objects.filter(service_request=service_request, answer=OfferAnswer.WAITING).exclude(provider=provider).update(
        answer=OfferAnswer.CLOSED
    )
    if service_request.offers_answer_by is not None:
        ServiceRequest.objects.filter(pk=service_request.pk).update(offers_answer_by=None)
