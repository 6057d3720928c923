"""/schedule in Chromium, from the keyboard: a provider sets Monday's hours (an end before the start
is shown beside the field first), adds time off; a client then finds them with "Available on"."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.models import TimeOff, WeeklyHours
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_today = timezone.localdate()
MONDAY = _today + dt.timedelta(days=14 + (7 - _today.weekday()) % 7)
FRIDAY = MONDAY + dt.timedelta(days=4)


def _type_date(page: Page, label: str, day: dt.date) -> None:
    """Type a date into a date field as a person would: from its month part, month day year."""
    page.get_by_label(label).focus()
    page.keyboard.press("ArrowLeft")  # a field typed in before keeps its last part in focus
    page.keyboard.press("ArrowLeft")
    page.keyboard.type(f"{day:%m%d%Y}")


def test_provider_sets_hours_from_the_keyboard_and_a_client_finds_them(live_server, page: Page, verified_provider):
    VerifiedProviderFactory(user__first_name="Anytime")  # no hours: always listed
    verified_provider.user.first_name = "Mona"
    verified_provider.user.save()
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/schedule", wait_until="networkidle")
    expect(page.get_by_test_id("no-hours")).to_contain_text("available at any time")

    page.get_by_role("button", name="Add hours on Monday").focus()
    page.keyboard.press("Enter")
    start = page.get_by_label("Monday window 1: from")
    end = page.get_by_label("Monday window 1: to")
    expect(start).to_be_focused()
    page.keyboard.type("0800AM")
    expect(start).to_have_value("08:00")
    end.focus()  # Tab walks the hour, minute and AM/PM parts of a time field first
    page.keyboard.type("0700AM")
    expect(end).to_have_value("07:00")
    page.get_by_role("button", name="Save weekly hours").focus()
    page.keyboard.press("Enter")
    error = page.get_by_test_id(re.compile(r"w-\d+-end-error"))
    expect(error).to_have_text("End time must be after the start time.")
    expect(end).to_have_attribute("aria-invalid", "true")
    assert not WeeklyHours.objects.exists()
    assert_no_axe_violations(page)

    end.focus()
    page.keyboard.type("1200PM")
    expect(end).to_have_value("12:00")
    page.get_by_role("button", name="Save weekly hours").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hours-status")).to_have_text("Your weekly hours are saved.")
    hours = WeeklyHours.objects.get(provider=verified_provider)
    assert (hours.weekday, hours.start_time, hours.end_time) == (0, dt.time(8), dt.time(12))
    expect(page.get_by_test_id("no-hours")).to_have_count(0)

    _type_date(page, "First day", FRIDAY)
    page.get_by_role("button", name="Add time off").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("off-status")).to_contain_text("Time off added")
    expect(page.get_by_test_id("time-off-list")).to_contain_text(str(FRIDAY.year))
    assert TimeOff.objects.filter(provider=verified_provider, first_day=FRIDAY, last_day=FRIDAY).exists()
    # The same day again overlaps it: said beside the first day.
    _type_date(page, "First day", FRIDAY)
    page.get_by_role("button", name="Add time off").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("off-first-error")).to_contain_text("This overlaps time off you already have")
    assert_no_axe_violations(page)

    # A client looks for someone free on that Monday.
    page.goto(f"{live_server.url}/providers", wait_until="networkidle")
    cards = page.get_by_test_id("provider-card")
    expect(cards).to_have_count(2)
    monday_card = page.get_by_role("article", name=re.compile("^Mona "))
    expect(monday_card.get_by_test_id("next-free")).to_have_text(re.compile(r"^Next free: Monday, \w+ \d+, morning$"))
    _type_date(page, "Available on", MONDAY)
    page.get_by_label("Time of day").select_option("afternoon")
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Anytime")
    page.get_by_label("Time of day").select_option("morning")
    expect(cards).to_have_count(2)
    _type_date(page, "Available on", FRIDAY)
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Anytime")
    assert_no_axe_violations(page)


def test_the_page_says_what_the_hours_mean_and_refuses_time_off_over_a_visit(
    live_server, page: Page, verified_provider
):
    from bookings.models import BookingStatus
    from bookings.tests.factories import BookingFactory

    BookingFactory(
        provider=verified_provider, scheduled_date=FRIDAY, scheduled_time="morning", status=BookingStatus.CONFIRMED
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/schedule", wait_until="networkidle")
    # No hours: every day says "any time", as the notice above them does.
    expect(page.get_by_test_id("no-hours")).to_contain_text("available at any time, every day")
    expect(page.get_by_test_id("day-0")).to_contain_text("Any time (no hours set)")
    expect(page.get_by_text("Not working")).to_have_count(0)

    # A day's first window covers the morning and afternoon visits.
    page.get_by_role("button", name="Add hours on Monday").click()
    expect(page.get_by_label("Monday window 1: from")).to_have_value("08:00")
    expect(page.get_by_label("Monday window 1: to")).to_have_value("17:00")
    expect(page.get_by_test_id("day-1")).to_contain_text("Not working")
    expect(page.get_by_test_id("unfit-0")).to_have_count(0)
    # Hours that hold no visit's first hour warn, before and after saving.
    page.get_by_label("Monday window 1: from").fill("09:00")
    page.get_by_label("Monday window 1: to").fill("11:30")
    expect(page.get_by_test_id("unfit-0")).to_contain_text("These hours fit no visit")
    page.get_by_role("button", name="Add hours on Friday").click()
    page.get_by_role("button", name="Save weekly hours").click()
    expect(page.get_by_test_id("hours-status")).to_contain_text("on Monday they fit no visit")
    assert_no_axe_violations(page)

    # Time off over the booked Friday visit is refused, naming it.
    _type_date(page, "First day", FRIDAY)
    page.get_by_role("button", name="Add time off").click()
    expect(page.get_by_test_id("off-error")).to_contain_text("Ask Kindly support to reassign it first")
    assert not TimeOff.objects.filter(provider=verified_provider).exists()
    page.screenshot(path="/tmp/h4_schedule_390.png", full_page=True)

    # Time off on a free day is added, and her calendar marks it (on a phone too: the day is shown).
    saturday = FRIDAY + dt.timedelta(days=1)
    _type_date(page, "First day", saturday)
    page.get_by_role("button", name="Add time off").click()
    expect(page.get_by_test_id("off-status")).to_contain_text("Time off added")
    page.goto(f"{live_server.url}/calendar?view=month&date={saturday.isoformat()}", wait_until="networkidle")
    marked = page.locator(f'[data-date="{saturday.isoformat()}"]').get_by_test_id("calendar-time-off")
    expect(marked).to_be_visible()
    expect(marked).to_have_text("Time off")
    assert_no_axe_violations(page, context="/calendar with time off (390 px)")
    marked.screenshot(path="/tmp/h4_calendar_off_390.png")
