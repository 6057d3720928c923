"""Writes of provider profiles: application and verification (ARCHITECTURE.md "State machines")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from accounts.models import UserType
from circles.notices import notice_send
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.geocoding import PlaceStatus, place_on_commit, place_record, zip_problem
from core.languages import spoken_problem
from core.notices.people import InApp
from core.notifications import NoticeKind, notify
from core.realtime import PROVIDER_UPDATED, send_on_commit
from core.validators import phone_problem
from providers import ports
from providers.models import (
    CHECKS_VALID_DAYS,
    TRAVEL_MILES_MAX,
    TRAVEL_MILES_MIN,
    WEEKDAYS,
    Provider,
    Specialty,
    TimeOff,
    VerificationStatus,
    WeeklyHours,
)
from providers.selectors import fits_hours, provider_visits_between

if TYPE_CHECKING:
    from accounts.models import User

ALREADY_APPLIED = gettext_lazy("You already have a provider profile.")

# The rules of an application (spec sections 5 and 9), owned here so the API, the Django admin and
# the commands obey the same ones. Errors name the API's fields (camelCase), in the spec's texts.
RATE_MIN = 15
RATE_MAX = 100
RATE_STEP = 5
BIO_MIN = 50
EXPERIENCE_MIN = 20
TEXT_MAX = 5000
SERVICE_AREA_MAX = 255

SPECIALTIES_REQUIRED = "Please select at least one specialty"
SPECIALTY_UNKNOWN = gettext_lazy("Please choose services from the list.")
RATE_REQUIRED = "Please enter your hourly rate"
RATE_OUT_OF_RANGE = "Hourly rate must be between $15 and $100"
RATE_NOT_IN_STEPS = "Hourly rate must be a multiple of $5"
SERVICE_AREA_REQUIRED = "Please enter your service area"
SERVICE_AREA_TOO_LONG = gettext_lazy("Service area can be at most 255 characters.")
BIO_TOO_SHORT = "Please provide a detailed bio (at least 50 characters)"
BIO_TOO_LONG = gettext_lazy("Bio can be at most 5,000 characters.")
EXPERIENCE_TOO_SHORT = "Please describe your experience"
EXPERIENCE_TOO_LONG = gettext_lazy("Experience can be at most 5,000 characters.")
TRAVEL_REQUIRED = gettext_lazy("Please choose how far you can travel.")
TRAVEL_OUT_OF_RANGE = format_lazy(
    gettext_lazy("Please choose a distance from {min} to {max} miles."), min=TRAVEL_MILES_MIN, max=TRAVEL_MILES_MAX
)


def specialties_problem(specialties: Sequence[str] | None) -> str:
    """At least one of the six services, none unknown."""
    if not specialties:
        return SPECIALTIES_REQUIRED
    if not set(specialties) <= set(Specialty.values):
        return SPECIALTY_UNKNOWN
    return ""


def hourly_rate_problem(rate: Decimal | int | None) -> str:
    """$15 to $100 an hour, in steps of $5."""
    if rate is None:
        return RATE_REQUIRED
    if not RATE_MIN <= rate <= RATE_MAX:
        return RATE_OUT_OF_RANGE
    if Decimal(rate) % RATE_STEP:
        return RATE_NOT_IN_STEPS
    return ""


def travel_miles_problem(miles: int | None) -> str:
    """How far she travels from home: 1 to 100 miles, whole miles."""
    if miles is None:
        return TRAVEL_REQUIRED
    if isinstance(miles, bool) or not isinstance(miles, int) or not TRAVEL_MILES_MIN <= miles <= TRAVEL_MILES_MAX:
        return TRAVEL_OUT_OF_RANGE
    return ""


def _text_problem(value: str | None, *, min_length: int, short: str, max_length: int, too_long: str) -> str:
    text = (value or "").strip()
    if not text or len(text) < min_length:
        return short
    if len(text) > max_length:
        return too_long
    return ""


# An application's model fields -> the API's names, which the errors use.
API_FIELD_NAMES = {
    "phone": "phone",
    "specialties": "specialties",
    "hourly_rate": "hourlyRate",
    "service_area": "serviceArea",
    "bio": "bio",
    "experience": "experience",
    "home_zip": "homeZip",
    "travel_miles": "travelMiles",
}


def provider_application_problems(
    *,
    phone: str,
    specialties: Sequence[str] | None,
    hourly_rate: Decimal | int | None,
    service_area: str,
    bio: str,
    experience: str,
    home_zip: str,
    travel_miles: int | None,
) -> dict[str, list[str]]:
    """What is wrong with an application, {API field: [messages]}; empty when all is well. Her home
    ZIP must be a US ZIP code the ZIP list knows (core.geocoding.zip_problem)."""
    problems = {
        "phone": phone_problem(phone or ""),
        "specialties": specialties_problem(specialties),
        "hourlyRate": hourly_rate_problem(hourly_rate),
        "serviceArea": _text_problem(
            service_area,
            min_length=1,
            short=SERVICE_AREA_REQUIRED,
            max_length=SERVICE_AREA_MAX,
            too_long=SERVICE_AREA_TOO_LONG,
        ),
        "bio": _text_problem(bio, min_length=BIO_MIN, short=BIO_TOO_SHORT, max_length=TEXT_MAX, too_long=BIO_TOO_LONG),
        "experience": _text_problem(
            experience,
            min_length=EXPERIENCE_MIN,
            short=EXPERIENCE_TOO_SHORT,
            max_length=TEXT_MAX,
            too_long=EXPERIENCE_TOO_LONG,
        ),
        "homeZip": zip_problem(home_zip or ""),
        "travelMiles": travel_miles_problem(travel_miles),
    }
    return {field: [problem] for field, problem in problems.items() if problem}


def _check_admin(actor: User) -> None:
    if not actor.is_admin:
        raise PermissionDenied(gettext("Admin access required"))


# The admin's review: a pending application is approved or rejected; a rejected one can still be
# approved later (a second look, new information). A verified provider stays verified here.
REVIEW_TRANSITIONS: dict[str, set[str]] = {
    VerificationStatus.PENDING: {VerificationStatus.VERIFIED, VerificationStatus.REJECTED},
    VerificationStatus.REJECTED: {VerificationStatus.VERIFIED},
}


def _check_review_transition(provider: Provider, status: str) -> None:
    current = provider.verification_status
    if status not in REVIEW_TRANSITIONS.get(current, set()):
        if current == VerificationStatus.REJECTED:
            raise Conflict(
                gettext("This application is already rejected; a rejected application can only be approved.")
            )
        raise Conflict(
            gettext("This provider is already %(status)s; only pending or rejected applications can be reviewed.")
            % {"status": current}
        )


def provider_lock(*, provider_id: int) -> Provider:
    """Re-read a provider under a row lock (caller is inside transaction.atomic)."""
    try:
        return Provider.objects.select_for_update(of=("self",)).select_related("user").get(pk=provider_id)
    except Provider.DoesNotExist:
        raise NotFound(gettext("Provider not found.")) from None


def provider_apply(
    *,
    user: User,
    phone: str,
    specialties: Sequence[str],
    hourly_rate: Decimal,
    service_area: str,
    bio: str,
    experience: str,
    home_zip: str,
    travel_miles: int,
    languages: Sequence[str] | None = None,
) -> Provider:
    """Create the user's provider profile (pending). `languages`: the ones she speaks (codes of
    core.languages.SPOKEN; none given: English). A second application is a 409; fields that
    break provider_application_problems' rules (a phone number without 10 to 15 digits, a rate
    off the $5 steps of $15-100, ...) are a 400.

    A client who applies becomes a provider account, so the dashboard shows the provider view.
    """
    if user.is_admin:
        raise PermissionDenied(gettext("Admin accounts cannot apply to be providers."))
    InvalidInput.check(
        provider_application_problems(
            phone=phone,
            specialties=specialties,
            hourly_rate=hourly_rate,
            service_area=service_area,
            bio=bio,
            experience=experience,
            home_zip=home_zip,
            travel_miles=travel_miles,
        )
    )
    languages = list(languages) if languages is not None else ["en"]
    InvalidInput.check({"languages": [problem]} if (problem := spoken_problem(languages)) else {})
    phone = phone.strip()
    if Provider.objects.filter(user=user).exists():
        raise Conflict(ALREADY_APPLIED)
    try:
        with transaction.atomic():
            provider = Provider.objects.create(
                user=user,
                phone=phone,
                specialties=list(dict.fromkeys(specialties)),
                hourly_rate=hourly_rate,
                service_area=service_area,
                bio=bio,
                experience=experience,
                home_zip=home_zip.strip(),
                travel_miles=travel_miles,
                languages=languages,
                place_status=PlaceStatus.PENDING,
            )
            _place_later(provider)
            if user.user_type == UserType.CLIENT:
                user.user_type = UserType.PROVIDER
                user.save(update_fields=["user_type", "updated_at"])
            notify(receivers=[user], notice=InApp.APPLICATION_RECEIVED)
    except IntegrityError:
        # Two applications at once: the one-to-one on user lets only one in.
        raise Conflict(ALREADY_APPLIED) from None
    return provider


def _place_later(provider: Provider) -> None:
    """Her home is placed by the geocoder after the commit (providers.tasks.place_provider)."""
    from providers.tasks import place_provider

    place_on_commit(place_provider, provider.pk)


def provider_home_moved(provider: Provider) -> list[str]:
    """Her home ZIP changed (the caller saves it, in a transaction): the old place is forgotten and
    the new one asked for after the commit. Returns the fields it set, for update_fields."""
    provider.latitude = provider.longitude = None
    provider.place_status = PlaceStatus.PENDING if provider.home_zip else PlaceStatus.NO_ADDRESS
    if provider.home_zip:
        _place_later(provider)
    return ["latitude", "longitude", "place_status"]


def provider_update_area(
    *,
    actor: User,
    home_zip: str | None = None,
    travel_miles: int | None = None,
    languages: Sequence[str] | None = None,
) -> Provider:
    """The signed-in provider changes where she helps: her home ZIP code and how far she travels,
    and the languages she speaks (any of them). 400 naming each field that breaks its rule, nothing
    saved; 403 for someone with no provider profile. A new ZIP code is placed again, after the commit."""
    problems = {}
    if languages is not None:
        languages = list(languages)
        problems["languages"] = [spoken_problem(languages)]
    if home_zip is not None:
        problems["homeZip"] = [zip_problem(home_zip)]
    if travel_miles is not None:
        problems["travelMiles"] = [travel_miles_problem(travel_miles)]
    InvalidInput.check({field: [m for m in messages if m] for field, messages in problems.items()})
    with transaction.atomic():
        provider = Provider.objects.select_for_update(of=("self",)).filter(user_id=actor.pk).first()
        if provider is None:
            raise PermissionDenied(gettext("Only providers set where they help."))
        changed = []
        if home_zip is not None and home_zip.strip() != provider.home_zip:
            provider.home_zip = home_zip.strip()
            changed += ["home_zip", *provider_home_moved(provider)]
        if travel_miles is not None and travel_miles != provider.travel_miles:
            provider.travel_miles = travel_miles
            changed.append("travel_miles")
        if languages is not None and languages != provider.languages:
            provider.languages = languages
            changed.append("languages")
        if changed:
            provider.save(update_fields=[*changed, "updated_at"])
    return provider


def provider_place(*, provider_id: int):
    """Place the provider's home at its ZIP code (Celery: providers.tasks.place_provider; never in a
    transaction). A ZIP that cannot be placed is saved "not found": staff see it flagged."""
    return place_record(Provider, provider_id, address_of=lambda provider: provider.home_address)


def provider_set_status(*, provider_id: int, actor: User, status: str, reason: str = "") -> Provider:
    """Admin approves (verified) or rejects (rejected) a pending application, or approves a
    rejected one (REVIEW_TRANSITIONS); audited by adminpanel.services.admin_provider_set_status."""
    _check_admin(actor)
    if status not in (VerificationStatus.VERIFIED, VerificationStatus.REJECTED):
        raise InvalidInput(
            gettext("Status must be verified or rejected."),
            errors={"status": [gettext("Must be verified or rejected.")]},
        )
    with transaction.atomic():
        provider = provider_lock(provider_id=provider_id)
        _check_review_transition(provider, status)
        if status == VerificationStatus.VERIFIED:
            problem = ports.approval_problem(provider)
            if problem:
                raise Conflict(problem)
        provider.verification_status = status
        provider.save(update_fields=["verification_status", "updated_at"])
        notice_send(NoticeKind.APPLICATION_DECIDED, helpers=[provider.user], facts={"status": status})
        send_on_commit(
            [provider.user_id],
            PROVIDER_UPDATED,
            {"id": provider.pk, "verificationStatus": provider.verification_status},
        )
    return provider


def provider_evidence_set(
    *,
    provider_id: int,
    identity_verified_at: dt.datetime | None = None,
    background_checked_at: dt.datetime | None = None,
) -> Provider:
    """A check said so (vetting.services): the date of her verified identity and of her clear (or
    adjudicated) background check, as families see them; a background check also sets when her
    checks expire (12 months on). Only the dates given change."""
    with transaction.atomic():
        provider = provider_lock(provider_id=provider_id)
        changed = []
        if identity_verified_at is not None:
            provider.identity_verified_at = identity_verified_at
            changed.append("identity_verified_at")
        if background_checked_at is not None:
            provider.background_checked_at = background_checked_at
            provider.checks_due_by = background_checked_at + dt.timedelta(days=CHECKS_VALID_DAYS)
            changed += ["background_checked_at", "checks_due_by"]
        if changed:
            provider.save(update_fields=[*changed, "updated_at"])
    return provider


# ---------------------------------------------------------------- schedule
# A provider's weekly hours (replaced a whole week at a time) and time off. Times are wall-clock
# times in the site's zone, on 15-minute steps. Errors name the API's fields:
# "weeklyHours.<n>.startTime" / ".endTime" for the n-th window sent, "firstDay", "lastDay", "note".

TIME_STEP_MINUTES = 15
MAX_WINDOWS = 7 * 8
NOTE_MAX = 200

END_BEFORE_START = gettext_lazy("End time must be after the start time.")
WINDOWS_OVERLAP = gettext_lazy("This overlaps another window on {day}.")
TIME_NOT_IN_STEPS = gettext_lazy("Please choose a time on the quarter hour (for example 9:00, 9:15, 9:30).")
WEEKDAY_UNKNOWN = gettext_lazy("Please choose a day of the week.")
TOO_MANY_WINDOWS = format_lazy(gettext_lazy("A week can have at most {count} windows."), count=MAX_WINDOWS)
LAST_BEFORE_FIRST = gettext_lazy("The last day must be on or after the first day.")
FIRST_DAY_PAST = gettext_lazy("Time off cannot start in the past.")
TIME_OFF_OVERLAP = gettext_lazy("This overlaps time off you already have ({first} to {last}).")
NOTE_TOO_LONG = format_lazy(gettext_lazy("Note can be at most {count} characters."), count=NOTE_MAX)
NOT_A_PROVIDER = gettext_lazy("Only providers have a schedule.")
OUTSIDE_HOURS = gettext_lazy("This visit is outside your available hours.")
ON_TIME_OFF = gettext_lazy("This visit is on your time off.")
TIME_OFF_OVER_VISIT = gettext_lazy("Ask Kindly support to reassign it first, or choose other dates.")
HOURS_OVER_VISIT = gettext_lazy("Ask Kindly support to reassign it first, or keep hours that cover it.")


def _check_own(provider: Provider | None, actor: User) -> Provider:
    """Only the provider themself edits their schedule."""
    if provider is None or provider.user_id != actor.pk:
        raise PermissionDenied(
            NOT_A_PROVIDER if provider is None else gettext("Only the provider can change their schedule.")
        )
    return provider


def _off_step(value: dt.time) -> bool:
    return value.minute % TIME_STEP_MINUTES != 0 or value.second != 0 or value.microsecond != 0


def weekly_hours_problems(windows: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """What is wrong with a week of windows ({weekday, start_time, end_time}), {field: [messages]}."""
    problems: dict[str, list[str]] = {}
    if len(windows) > MAX_WINDOWS:
        return {"weeklyHours": [TOO_MANY_WINDOWS]}
    for i, window in enumerate(windows):
        field = f"weeklyHours.{i}"
        if window["weekday"] not in range(7):
            problems[f"{field}.weekday"] = [WEEKDAY_UNKNOWN]
        for name, key in (("startTime", "start_time"), ("endTime", "end_time")):
            if _off_step(window[key]):
                problems[f"{field}.{name}"] = [TIME_NOT_IN_STEPS]
        if window["end_time"] <= window["start_time"] and f"{field}.endTime" not in problems:
            problems[f"{field}.endTime"] = [END_BEFORE_START]
    if problems:
        return problems
    by_day: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
    for i, window in enumerate(windows):
        by_day.setdefault(window["weekday"], []).append((i, window))
    for day, day_windows in by_day.items():
        day_windows.sort(key=lambda item: (item[1]["start_time"], item[0]))
        reach: dt.time | None = None  # the latest end among the day's earlier windows
        for i, window in day_windows:
            if reach is not None and window["start_time"] < reach:
                problems[f"weeklyHours.{i}.startTime"] = [WINDOWS_OVERLAP.format(day=WEEKDAYS[day])]
            reach = max(reach or window["end_time"], window["end_time"])
    return problems


def schedule_set_weekly_hours(
    *, provider: Provider | None, actor: User, windows: Sequence[Mapping[str, Any]]
) -> list[WeeklyHours]:
    """Replace the provider's whole week with `windows` (an empty list: no hours set, available
    any time). 400 with every problem, nothing saved; 403 for anyone but the provider."""
    provider = _check_own(provider, actor)
    InvalidInput.check(weekly_hours_problems(windows))
    with transaction.atomic():
        provider = provider_lock(provider_id=provider.pk)
        _check_hours_keep_visits(provider, windows)
        WeeklyHours.objects.filter(provider=provider).delete()
        saved = WeeklyHours.objects.bulk_create(
            WeeklyHours(provider=provider, weekday=w["weekday"], start_time=w["start_time"], end_time=w["end_time"])
            for w in sorted(windows, key=lambda w: (w["weekday"], w["start_time"]))
        )
    return saved


def time_off_add(
    *, provider: Provider | None, actor: User, first_day: dt.date, last_day: dt.date, note: str = ""
) -> TimeOff:
    """Days off, first_day to last_day: not starting in the past, last on or after first, no overlap
    with the provider's other time off (400, nothing saved); 403 for anyone but the provider."""
    provider = _check_own(provider, actor)
    note = (note or "").strip()
    problems: dict[str, list[str]] = {}
    if first_day < timezone.localdate():
        problems["firstDay"] = [FIRST_DAY_PAST]
    if last_day < first_day:
        problems["lastDay"] = [LAST_BEFORE_FIRST]
    if len(note) > NOTE_MAX:
        problems["note"] = [NOTE_TOO_LONG]
    InvalidInput.check(problems)
    with transaction.atomic():
        provider = provider_lock(provider_id=provider.pk)  # two adds at once: one sees the other
        clash = TimeOff.objects.filter(provider=provider, first_day__lte=last_day, last_day__gte=first_day).first()
        if clash is not None:
            message = TIME_OFF_OVERLAP.format(first=_day(clash.first_day), last=_day(clash.last_day))
            raise InvalidInput(message, errors={"firstDay": [message]})
        problem = time_off_visits_problem(provider, first_day=first_day, last_day=last_day)
        if problem:
            raise Conflict(problem)
        return TimeOff.objects.create(provider=provider, first_day=first_day, last_day=last_day, note=note)


def _clock(moment: dt.datetime) -> str:
    """ "12 PM", "12:30 PM"."""
    hour = moment.hour % 12 or 12
    minutes = f":{moment.minute:02d}" if moment.minute else ""
    return f"{hour}{minutes} {'AM' if moment.hour < 12 else 'PM'}"


def visit_words(booking: Any) -> str:
    """ "a visit with Clara on Tue, Dec 2, 12 PM-2 PM" (the person cared for, in the site's zone)."""
    start, end = timezone.localtime(booking.starts_at), timezone.localtime(booking.ends_at)
    person = booking.recipient.first_name if booking.recipient_id else ""
    person = person or booking.client.first_name or gettext("a client")
    return gettext("a visit with %(person)s on %(day)s, %(start)s-%(end)s") % {
        "person": person,
        # Translators: Django date format letters for a short day ("Tue, Dec 2").
        "day": date_format(start, pgettext("short visit day", "D, M j")),
        "start": _clock(start),
        "end": _clock(end),
    }


def _visits_in_the_way(visits: Sequence[Any], what_to_do: str) -> str:
    named = [visit_words(v) for v in visits[:3]]
    more = len(visits) - len(named)
    if more:
        named.append(ngettext("%(count)s more", "%(count)s more", more) % {"count": more})
    listed = (
        named[0]
        if len(named) == 1
        else gettext("%(days)s and %(last)s") % {"days": ", ".join(named[:-1]), "last": named[-1]}
    )
    return gettext("You have %(visits)s. %(what_to_do)s") % {"visits": listed, "what_to_do": what_to_do}


def time_off_visits_problem(provider: Provider, *, first_day: dt.date, last_day: dt.date) -> str:
    """Why this time off cannot be taken ("" when it can): a scheduled or confirmed visit of the
    provider falls on it. A booked visit is never dropped in silence: she asks support to reassign
    it first (the API's 409, the Django admin's form error)."""
    visits = provider_visits_between(provider, first_day=first_day, last_day=last_day)
    return _visits_in_the_way(visits, TIME_OFF_OVER_VISIT) if visits else ""


def hours_visits_problem(provider: Provider, windows: Sequence[Mapping[str, Any]]) -> str:
    """Why this week of windows ({weekday, start_time, end_time}) cannot replace the provider's
    ("" when it can): it leaves one of her booked visits (from now on) outside. No windows at all is
    "available any time": it leaves nothing outside."""
    if not windows:
        return ""
    hours = [WeeklyHours(weekday=w["weekday"], start_time=w["start_time"], end_time=w["end_time"]) for w in windows]
    today = timezone.localdate()
    ahead = provider_visits_between(provider, first_day=today, last_day=today + dt.timedelta(days=366 * 2))
    outside = [visit for visit in ahead if not fits_hours(hours, visit.starts_at, visit.ends_at)]
    return _visits_in_the_way(outside, HOURS_OVER_VISIT) if outside else ""


def _check_hours_keep_visits(provider: Provider, windows: Sequence[Mapping[str, Any]]) -> None:
    problem = hours_visits_problem(provider, windows)
    if problem:
        raise Conflict(problem)


def time_off_remove(*, provider: Provider | None, actor: User, time_off_id: int) -> None:
    """Delete one of the provider's own time off (another provider's, or none: 404)."""
    provider = _check_own(provider, actor)
    deleted, _ = TimeOff.objects.filter(provider=provider, pk=time_off_id).delete()
    if not deleted:
        raise NotFound(gettext("Time off not found."))


def _day(value: dt.date) -> str:
    return f"{value:%B} {value.day}, {value.year}"
