"""The rules of a request's fields (spec section 5): the editable fields, the limits and the
words, and the checks (*_problem, service_request_problems) the API, the Django admin and the
commands all obey."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from core.addresses import PART_API_NAMES, PART_LABELS, PART_LIMITS, PART_NAMES, parse_one_line
from requests_app.models import SERIES_MAX_VISITS, SERIES_MIN_VISITS, ServiceCategory
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
