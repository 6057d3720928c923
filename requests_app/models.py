from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import dateformat
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from core.addresses import area_line, full_line, parse_one_line
from providers.models import VISIT_WINDOWS


class ServiceCategory(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    icon = models.CharField(max_length=64, blank=True)
    features = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "service categories"

    def __str__(self) -> str:
        return self.name

    @property
    def display_name(self) -> str:
        """The service's name in the reader's language (the six of requests_app.categories are in
        the catalogue; a service staff add keeps the name they gave it)."""
        return gettext(self.name) if self.name else ""


class Urgency(models.TextChoices):
    LOW = "low", "Low - can wait a week or more"
    NORMAL = "normal", "Normal - within a few days"
    HIGH = "high", "High - within 24 hours"
    URGENT = "urgent", "Urgent - ASAP"


class TimeWindow(models.TextChoices):
    MORNING = "morning", _("Morning (8AM - 12PM)")
    AFTERNOON = "afternoon", _("Afternoon (12PM - 5PM)")
    EVENING = "evening", _("Evening (5PM - 8PM)")
    FLEXIBLE = "flexible", _("Flexible")


# The one table of visit window times (providers.models.VISIT_WINDOWS, in the zone of the person
# cared for): when each window starts and ends. "Flexible" starts at 8 AM like the morning and
# runs to the end of the evening, the whole day the family left open (ARCHITECTURE.md).
WINDOW_TIMES: dict[str, tuple[dt.time, dt.time]] = {
    **{TimeWindow(name): times for name, times in VISIT_WINDOWS.items()},
    TimeWindow.FLEXIBLE: (VISIT_WINDOWS[TimeWindow.MORNING][0], VISIT_WINDOWS[TimeWindow.EVENING][1]),
}
# When a visit in each window starts, and when the window the family was told ends.
WINDOW_START: dict[str, dt.time] = {window: start for window, (start, _end) in WINDOW_TIMES.items()}
WINDOW_END: dict[str, dt.time] = {window: end for window, (_start, end) in WINDOW_TIMES.items()}


# A confirmed arrival time (Booking.arrival_time): the helper picks it when she accepts, inside the
# family's window so the whole visit fits in it; 400 on arrivalTime otherwise.
ARRIVAL_OUTSIDE_WINDOW = gettext_lazy(
    "Choose an arrival time between {first} and {last}, so the visit fits in the family's {window}."
)
ARRIVAL_STEP_MINUTES = 5
ARRIVAL_NOT_IN_STEPS = gettext_lazy("Choose an arrival time in steps of 5 minutes.")


def arrival_window(preferred_time: str, duration: int) -> tuple[dt.time, dt.time]:
    """The earliest and the latest arrival that keep a visit of `duration` minutes inside the
    family's window (a visit longer than the window may only start at its start)."""
    start, end = WINDOW_TIMES.get(preferred_time or TimeWindow.FLEXIBLE, WINDOW_TIMES[TimeWindow.FLEXIBLE])
    day = dt.date(2000, 1, 2)  # any day: the window's clock is the same every day
    latest = dt.datetime.combine(day, end) - dt.timedelta(minutes=duration)
    return start, max(latest, dt.datetime.combine(day, start)).time()


def arrival_time_problem(arrival: dt.time | None, *, preferred_time: str, duration: int) -> str:
    """What is wrong with an arrival time for a request's window, or "" (None: the window's start)."""
    if arrival is None:
        return ""
    first, last = arrival_window(preferred_time, duration)
    if not first <= arrival <= last:
        label = f"{preferred_time or TimeWindow.FLEXIBLE} window"
        return ARRIVAL_OUTSIDE_WINDOW.format(first=clock_words(first), last=clock_words(last), window=label)
    if arrival.minute % ARRIVAL_STEP_MINUTES or arrival.second or arrival.microsecond:
        return ARRIVAL_NOT_IN_STEPS
    return ""


def clock_words(moment: dt.time) -> str:
    """ "2:00 PM"."""
    return dateformat.time_format(moment, "g:i A")


# The arrival times offered to a helper accepting (every quarter hour of her arrival window).
ARRIVAL_CHOICE_MINUTES = 15


def arrival_choices(preferred_time: str, duration: int) -> list[dict[str, str]]:
    """The arrival times a helper may pick when she accepts, {value: "14:00", label: "2:00 PM"}."""
    first, last = arrival_window(preferred_time, duration)
    day = dt.date(2000, 1, 2)
    moment, end = dt.datetime.combine(day, first), dt.datetime.combine(day, last)
    choices = []
    while moment <= end:
        choices.append({"value": moment.strftime("%H:%M"), "label": clock_words(moment.time())})
        moment += dt.timedelta(minutes=ARRIVAL_CHOICE_MINUTES)
    return choices


def window_length(window: str) -> dt.timedelta:
    """How long a window lasts (the same every day: no zone changes its clock between 8 AM and 8 PM)."""
    start, end = WINDOW_TIMES.get(window, WINDOW_TIMES[TimeWindow.FLEXIBLE])
    return dt.datetime.combine(dt.date.min, end) - dt.datetime.combine(dt.date.min, start)


# A client may cancel a booked visit up to this long before it starts (spec: 48 hours). The one
# rule, cancel_deadline / still_cancellable below, is read by the cancel and a booking's "can
# cancel" (bookings.lifecycle), the account closure, and the request forms' short-notice warning;
# the frontend reads the hours from the generated rules (cancellation.WINDOW_HOURS).
CANCEL_WINDOW_HOURS = 48
CANCELLATION_WINDOW = dt.timedelta(hours=CANCEL_WINDOW_HOURS)


def cancel_deadline(visit_start: dt.datetime) -> dt.datetime:
    """The last moment a client may cancel a visit that starts at `visit_start`: 48 hours of
    elapsed time before it (counted in UTC, so a clock change in between counts as it passes)."""
    return visit_start.astimezone(dt.UTC) - CANCELLATION_WINDOW


def still_cancellable(visit_start: dt.datetime, now: dt.datetime) -> bool:
    """Whether a client may still cancel, at `now`, a visit that starts at `visit_start`: up to
    CANCELLATION_WINDOW before it (the whole rule; every check of the 48 hours asks this)."""
    return now <= cancel_deadline(visit_start)


# The booked helper keeps the street address, phone and notes for helpers this long after her
# check-out (or the visit's planned end when she did not check out), to write the visit report;
# then a completed visit's helper sees the town and ZIP only, like a cancelled or replaced one.
ADDRESS_KEPT_AFTER_VISIT = dt.timedelta(hours=4)


class Repeat(models.TextChoices):
    """How a request repeats: each visit keeps the first one's weekday and time window.
    Monthly is the same weekday in the same week of the month (the last one when the month has
    no fifth)."""

    NONE = "", "Does not repeat"
    WEEKLY = "weekly", "Every week"
    EVERY_2_WEEKS = "every_2_weeks", "Every 2 weeks"
    MONTHLY = "monthly", "Every month"


# A series holds at least two visits (one is not a series) and at most this many.
SERIES_MIN_VISITS = 2
SERIES_MAX_VISITS = 26

# A request sent to one provider ("rebook a helper"): only they may accept it for this
# long; then it opens to every provider unless the client chose "only this helper".
DIRECT_WINDOW = dt.timedelta(hours=24)


class RequestStatus(models.TextChoices):
    OPEN = "open", "Open"
    BOOKED = "booked", "Booked"
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"
    # Deleted by its client while open: gone for everyone but staff, who keep a trace of it (the
    # admin's requests tab) without its address or notes for helpers.
    DELETED = "deleted", "Deleted by client"


class OfferedTo(models.TextChoices):
    """Which helpers see an open request. Rows made before offers, a request sent to one helper
    (once it opens), one whose place is unknown ("offered by town", flagged for staff) and one
    whose offers ran out: ALL, every verified helper who can take it. A request posted for a placed
    recipient: OFFERS, only the helpers it was offered to (requests_app.services.offers_send)."""

    ALL = "all", "Every helper who can take it"
    OFFERS = "offers", "The helpers it was offered to"


# Offers (requests_app.services.offers_send): the first round goes to the best few helpers who can
# take the request, each widening to the next few, for this long each (shorter when it is urgent);
# after the last round it opens to every helper who can take it and staff are told.
OFFER_FIRST = 3
OFFER_WIDEN = 5
OFFER_ROUNDS = 3
OFFER_ANSWER_TIME: dict[str, dt.timedelta] = {
    "urgent": dt.timedelta(minutes=15),
    "high": dt.timedelta(minutes=30),
    "normal": dt.timedelta(hours=2),
    "low": dt.timedelta(hours=4),
}


class LiveRequestManager(models.Manager):
    """ServiceRequest.objects: the requests that exist for people (a deleted one is not there)."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().exclude(status=RequestStatus.DELETED)


class ServiceRequest(models.Model):
    # Who posted it (an organizer of the recipient's circle); the spec's clientId.
    client = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="service_requests")
    # Who the help is for: the circle of this recipient sees the request (circles.selectors).
    recipient = models.ForeignKey("circles.CareRecipient", on_delete=models.PROTECT, related_name="service_requests")
    category = models.ForeignKey(
        ServiceCategory, on_delete=models.PROTECT, null=True, blank=True, related_name="requests"
    )
    title = models.CharField(max_length=200)
    description = models.TextField()
    preferred_date = models.DateField(null=True, blank=True)
    preferred_time = models.CharField(max_length=16, choices=TimeWindow.choices, blank=True)
    urgency = models.CharField(max_length=16, choices=Urgency.choices, default=Urgency.NORMAL)
    # Where the visit is, in parts (the spec's one-line `location` is composed from them): helpers
    # considering the request see the town and ZIP only (requests_app.selectors.address_shown_to).
    street = models.CharField(max_length=255, blank=True)
    unit = models.CharField(max_length=40, blank=True)
    town = models.CharField(max_length=120, blank=True)
    state = models.CharField(max_length=40, blank=True)
    zip_code = models.CharField("ZIP", max_length=10, blank=True)
    special_requirements = models.TextField(blank=True)
    # What the visit is for: the family's task list, short items in their order ("Pick up
    # prescriptions"). Every visit of a series carries it; the helper sees it before accepting and
    # marks each item at check-out (bookings.VisitTaskOutcome). Rules: requests_app.services.tasks_problem.
    tasks = models.JSONField(default=list, blank=True)
    estimated_duration = models.PositiveIntegerField(default=60, help_text="minutes")
    max_budget = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    status = models.CharField(max_length=16, choices=RequestStatus.choices, default=RequestStatus.OPEN)
    # Sent to one provider: only they see and may accept it until
    # direct_until; after that it is open to all unless only_requested_provider. A decline by that
    # provider (declined_at, decline_reason) ends the window at once.
    requested_provider = models.ForeignKey(
        "providers.Provider", on_delete=models.SET_NULL, null=True, blank=True, related_name="direct_requests"
    )
    direct_until = models.DateTimeField(null=True, blank=True)
    only_requested_provider = models.BooleanField(default=False)
    declined_at = models.DateTimeField(null=True, blank=True)
    decline_reason = models.TextField(blank=True)
    # When a direct request opened to every provider (the window lapsed and the circle was told, or
    # the provider declined): the lapse notice goes once, and providers hear of it from then.
    direct_opened_at = models.DateTimeField(null=True, blank=True)
    # A repeating request: one provider accepts the series and each
    # visit is its own Booking (Booking.series_index). repeat_count or repeat_until, at most
    # SERIES_MAX_VISITS visits; preferred_date is the first visit.
    repeat = models.CharField(max_length=16, choices=Repeat.choices, default=Repeat.NONE, blank=True)
    repeat_count = models.PositiveSmallIntegerField(null=True, blank=True)
    repeat_until = models.DateField(null=True, blank=True)
    # Offers: who sees it while open (OfferedTo), the round of offers made (0: none yet), when the
    # helpers offered it must answer by before it widens, and the flag staff see when its place is
    # unknown and it went to every helper of the service instead ("offered by town").
    offered_to = models.CharField(
        max_length=8, choices=OfferedTo.choices, default=OfferedTo.ALL, db_default=OfferedTo.ALL
    )
    offer_round = models.PositiveSmallIntegerField(default=0, db_default=0)
    offers_answer_by = models.DateTimeField(null=True, blank=True)
    offered_by_town = models.BooleanField(default=False, db_default=False)
    # When a request offered to a few opened to every helper (its rounds unanswered, nobody near, or
    # its place unknown): providers hear of it as a new request from then, as of a direct request's
    # direct_opened_at (notifications.selectors.open_requests_since).
    widened_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Every read goes through `objects`, which leaves deleted requests out; `all_objects` (staff's
    # list, the account purge) sees them too. Related lookups (booking.service_request) use the
    # base manager, which sees every row.
    all_objects = models.Manager()
    objects = LiveRequestManager()

    class Meta:
        default_manager_name = "objects"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_budget__isnull=True) | Q(max_budget__gte=0), name="request_max_budget_gte_0"
            ),
            models.CheckConstraint(condition=Q(estimated_duration__gte=1), name="request_duration_gte_1"),
        ]
        indexes = [
            models.Index(fields=["client", "status"], name="request_client_status_idx"),
            models.Index(fields=["recipient", "status"], name="request_recipient_status_idx"),
            models.Index(fields=["status", "-created_at"], name="request_status_created_idx"),
            models.Index(fields=["requested_provider", "status"], name="request_direct_status_idx"),
            models.Index(fields=["status", "offered_to", "offers_answer_by"], name="request_offers_due_idx"),
            # The staff's market view (adminpanel.selectors.market_summary): the requests posted in a period.
            models.Index(fields=["created_at"], name="request_created_idx"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def location(self) -> str:
        """The spec's one-line location, in full (for those who may see it all: address_shown_to)."""
        return full_line(self.street, self.unit, self.town, self.state, self.zip_code)

    @location.setter
    def location(self, text: str) -> None:
        # The one-line form still accepted (the spec's API, fixtures): read into parts, best effort.
        for name, value in parse_one_line(text).as_dict().items():
            setattr(self, name, value)

    @property
    def area(self) -> str:
        """The town, state and ZIP only: what a helper sees before she is booked."""
        return area_line(self.town, self.state, self.zip_code)


class OfferAnswer(models.TextChoices):
    WAITING = "", "Waiting for her answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    # Another helper took it, or it was cancelled or deleted first: closed without her answer.
    CLOSED = "closed", "Closed before she answered"


class Offer(models.Model):
    """An open request offered to one helper: when, how far from the person cared for, in which
    round, and when and how she answered (her answer speed: the median over her last offers)."""

    service_request = models.ForeignKey(ServiceRequest, on_delete=models.CASCADE, related_name="offers")
    provider = models.ForeignKey("providers.Provider", on_delete=models.CASCADE, related_name="offers")
    round = models.PositiveSmallIntegerField(default=1)
    rank = models.PositiveSmallIntegerField(default=1)
    miles = models.FloatField(null=True, blank=True)
    offered_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    answer = models.CharField(max_length=8, choices=OfferAnswer.choices, default=OfferAnswer.WAITING, blank=True)
    # Why she said "Not for me", when she said (optional; staff read it in the Django admin).
    decline_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-offered_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["service_request", "provider"], name="offer_one_per_helper"),
        ]
        indexes = [
            models.Index(fields=["provider", "-offered_at"], name="offer_provider_recent_idx"),
        ]

    def __str__(self) -> str:
        return f"Offer of request {self.service_request_id} to provider {self.provider_id}"
