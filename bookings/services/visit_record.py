"""The visit's record: was the helper where the senior lives when she checked in and out, and what
became of each task the family listed (ServiceRequest.tasks).

Place: a position within settings.VISIT_PLACE_RADIUS_METERS (about 150 m) of the recipient's
coordinates is "verified". Outside it, with no position, at 0,0 (a browser's "unknown"), or with an
accuracy circle wider than PLACE_ACCURACY_MAX_METERS, the helper says why in a few words and the
visit is "unverified" for the circle and staff: never blocked. A home without coordinates cannot
be compared (verified stays null, no reason asked), nor one placed by the offline "zip" geocoder:
a ZIP code's centre is miles from most of its homes, so a 150 m check would call every visit
unverified (core.geocoding.placed_to_the_street; a street-level geocoder such as nominatim places
the home itself, and make run's "demo" geocoder its demo home).
Only the two points are kept, rounded, and cleared after 90 days (visit_locations_purge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy

from bookings.models import Booking, VisitTaskOutcome
from core.errors import InvalidInput
from core.geo import Point, miles_between
from core.geocoding import placed_to_the_street

METERS_PER_MILE = 1609.344
PLACE_ACCURACY_MAX_METERS = 500
PLACE_REASON_MAX = 200
TASK_REASON_MAX = 200

PLACE_REASON_TOO_LONG = gettext_lazy("The reason can be at most 200 characters.")
NO_POSITION = gettext_lazy("Your phone did not share where you are.")
VAGUE_POSITION = gettext_lazy("Your phone could only tell roughly where you are.")
AWAY_FROM_HOME = gettext_lazy("You seem to be about {distance} from {name}'s home.")
SAY_WHY = "{problem} Say why in a few words (for example: no signal, the visit moved to the clinic)."
TASKS_UNMARKED = gettext_lazy("Mark each task done or not done.")
TASK_REASON_REQUIRED = gettext_lazy("Say in a few words why this was not done.")
TASK_REASON_TOO_LONG = gettext_lazy("The reason can be at most 200 characters.")


@dataclass(frozen=True)
class PlaceCheck:
    """The verdict on one position: verified (None when the home has no coordinates) and, when
    not verified, what to tell the helper."""

    verified: bool | None
    problem: str = ""


def _distance_words(meters: float) -> str:
    miles = meters / METERS_PER_MILE
    if miles < 0.2:
        return f"{round(meters / 10) * 10:.0f} m"
    return f"{miles:.1f} miles"


def place_check(booking: Booking, *, latitude: Any, longitude: Any, accuracy: Any) -> PlaceCheck:
    """Whether a browser position is at the home of the person cared for (the rule above)."""
    home = booking.recipient
    if home.latitude is None or home.longitude is None:
        return PlaceCheck(None)
    if not placed_to_the_street(street=home.street, zip_code=home.zip_code):
        return PlaceCheck(None)
    if latitude is None or longitude is None or (float(latitude) == 0 and float(longitude) == 0):
        return PlaceCheck(False, NO_POSITION)
    if accuracy is None or not 0 <= float(accuracy) <= PLACE_ACCURACY_MAX_METERS:
        return PlaceCheck(False, VAGUE_POSITION)
    meters = miles_between(Point(home.latitude, home.longitude), Point(float(latitude), float(longitude)))
    meters *= METERS_PER_MILE
    if meters <= settings.VISIT_PLACE_RADIUS_METERS:
        return PlaceCheck(True)
    name = home.first_name or "the person"
    return PlaceCheck(False, AWAY_FROM_HOME.format(distance=_distance_words(meters), name=name))


def place_verdict(
    booking: Booking, *, latitude: Any, longitude: Any, accuracy: Any, reason: str
) -> tuple[bool | None, str]:
    """(verified, the reason kept): a position away from the home needs the helper's reason (400
    on "reason" without one, nothing saved); a verified one keeps no reason."""
    reason = " ".join((reason or "").split())
    if len(reason) > PLACE_REASON_MAX:
        raise InvalidInput(PLACE_REASON_TOO_LONG, errors={"reason": [PLACE_REASON_TOO_LONG]})
    check = place_check(booking, latitude=latitude, longitude=longitude, accuracy=accuracy)
    if check.verified is False and not reason:
        message = SAY_WHY.format(problem=check.problem)
        raise InvalidInput(message, errors={"reason": [message]})
    return check.verified, "" if check.verified else reason


def _clock(moment, booking: Booking) -> str:
    """A moment as "13:58" on the recipient's clock: kept as data, said in its reader's words."""
    return f"{timezone.localtime(moment, booking.time_zone):%H:%M}"


def visit_timeline_facts(booking: Booking) -> dict[str, Any]:
    """The visit for the circle's report notice, as data its reader's language says
    (core.notices.visits): when the helper arrived and left (recipient's clock), whether she was at
    the home and why not, the tasks done out of the family's list, and each one not done with its
    reason. Empty before the check-in."""
    if booking.checked_in_at is None:
        return {}
    outcomes = list(
        VisitTaskOutcome.objects.filter(booking_id=booking.pk)
        .order_by("position")
        .values_list("task", "done", "reason")
    )
    place = {True: "home", False: "away"}.get(booking.check_in_verified, "")
    return {
        "arrived_clock": _clock(booking.checked_in_at, booking),
        "left_clock": _clock(booking.checked_out_at, booking) if booking.checked_out_at else "",
        "place": place,
        "place_reason": booking.check_in_reason if place == "away" else "",
        "home_of": booking.recipient.first_name,
        "tasks_done": sum(1 for _task, done, _reason in outcomes if done),
        "tasks_total": len(outcomes),
        "tasks_missed": [[task, reason] for task, done, reason in outcomes if not done],
    }


def task_outcome_problems(tasks: list[str], outcomes: Any) -> dict[str, list[str]]:
    """At check-out, one outcome per task in the list's order: done, or not done with a reason."""
    if not tasks:
        return {}
    if not isinstance(outcomes, list) or len(outcomes) != len(tasks):
        return {"tasks": [TASKS_UNMARKED]}
    problems: dict[str, list[str]] = {}
    for i, outcome in enumerate(outcomes):
        done = outcome.get("done") if isinstance(outcome, dict) else None
        reason = " ".join(str(outcome.get("reason") or "").split()) if isinstance(outcome, dict) else ""
        if not isinstance(done, bool):
            problems[f"tasks.{i}.done"] = [TASKS_UNMARKED]
        elif not done and not reason:
            problems[f"tasks.{i}.reason"] = [TASK_REASON_REQUIRED]
        elif len(reason) > TASK_REASON_MAX:
            problems[f"tasks.{i}.reason"] = [TASK_REASON_TOO_LONG]
    return problems


def task_outcomes_save(booking: Booking, tasks: list[str], outcomes: list[dict[str, Any]]) -> None:
    """Keep the outcomes checked by task_outcome_problems (inside the check-out's transaction)."""
    VisitTaskOutcome.objects.bulk_create(
        VisitTaskOutcome(
            booking=booking,
            position=i,
            task=task[:200],
            done=bool(outcome["done"]),
            reason="" if outcome["done"] else " ".join(str(outcome.get("reason") or "").split()),
        )
        for i, (task, outcome) in enumerate(zip(tasks, outcomes, strict=True))
    )
