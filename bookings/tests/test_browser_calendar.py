"""/calendar in a browser: a client with two recipients and a provider see their
visits by month and week, axe clean, at 320 px wide (and 640 px: 200% zoom of 1280) with 44 px
targets and 18 px text; the "Whose visits" choice and the calendar's navigation work from the
keyboard, without any script of ours."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _a_tuesday_ahead() -> dt.date:
    """A Tuesday at least 3 days ahead whose Thursday is in the same month: the visits on it and the
    next two days share one week and one month whatever day the tests run."""
    today = timezone.localdate()
    day = today + dt.timedelta(days=3 + (1 - (today.weekday() + 3)) % 7)
    while (day + dt.timedelta(days=2)).month != day.month:
        day += dt.timedelta(days=7)
    return day


DAY = _a_tuesday_ahead()

_LAYOUT = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) problems.push(`scrolls sideways: ${doc.scrollWidth}px`);
  for (const el of document.querySelectorAll("main a, main button, main input, main select")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.height < 44 || r.width < 44) problems.push(`${el.outerHTML.slice(0, 80)} is ${r.width}x${r.height}`);
  }
  for (const el of document.querySelectorAll(".calendar-day")) {
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`${el.dataset.date} overflows its box`);
  }
  for (const el of document.querySelectorAll(".calendar-visit *, .calendar-day-label *, label, .calendar-none")) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 18) problems.push(`${el.outerHTML.slice(0, 80)} has ${size}px text`);
  }
  return problems;
}"""


@pytest.fixture
def world(verified_provider):
    daughter = UserFactory(first_name="Dana", last_name="Senior")
    clara = CareRecipientFactory(first_name="Clara", last_name="Senior")
    walter = CareRecipientFactory(first_name="Walter", last_name="Stone")
    for recipient in (clara, walter):
        CircleMemberFactory(recipient=recipient, user=daughter, role=CircleRole.ORGANIZER)

    def visit(recipient, day, **kwargs):
        return BookingFactory(
            service_request__client=daughter, service_request__recipient=recipient, scheduled_date=day, **kwargs
        )

    return {
        "daughter": daughter,
        "provider": verified_provider.user,
        "clara": clara,
        "walter": walter,
        "clara_visit": visit(clara, DAY, provider=verified_provider, service_request__title="Wellness visit"),
        "walter_visit": visit(walter, DAY, scheduled_time="afternoon", service_request__title="Errands"),
        "cancelled": visit(
            clara, DAY + dt.timedelta(days=1), status=BookingStatus.CANCELLED, service_request__title="Doctor"
        ),
    }


def _check(page: Page, url: str, problems: dict[str, str]) -> None:
    page.goto(url, wait_until="networkidle")
    found = page.evaluate(_LAYOUT)
    violations = axe_violations(page)
    if found or violations:
        problems[url] = "\n".join(found) + "\n" + format_violations(violations)


def test_the_calendar_reflows_and_is_axe_clean_for_a_client_and_a_provider(live_server, page: Page, world):
    problems: dict[str, str] = {}
    base = f"{live_server.url}/calendar?date={DAY.isoformat()}"
    for user in (world["daughter"], world["provider"]):
        sign_in_browser(page, live_server.url, user)
        for width in (320, 640, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            for query in ("&view=month", "&view=week", f"&view=week&recipient={world['clara'].pk}"):
                if user == world["provider"] and "recipient" in query:
                    continue
                _check(page, base + query, problems)
                if width == 320 and "month" in query:
                    # A phone shows the month as a list of the days with visits.
                    expect(page.locator(".calendar-day:visible")).to_have_count(2 if user == world["daughter"] else 1)
    assert problems == {}, "\n\n".join(f"{url}:\n{text}" for url, text in problems.items())


def test_a_client_picks_whose_visits_and_pages_through_the_calendar_by_keyboard(live_server, page: Page, world):
    page.set_viewport_size({"width": 320, "height": 800})
    sign_in_browser(page, live_server.url, world["daughter"])
    page.goto(f"{live_server.url}/calendar?view=week&date={DAY.isoformat()}", wait_until="networkidle")
    visits = page.get_by_test_id("calendar-visit")
    expect(visits).to_have_count(3)
    expect(visits.filter(has_text="Errands")).to_contain_text("For Walter Stone")
    cancelled = visits.filter(has_text="Doctor")
    expect(cancelled).to_contain_text("Cancelled")
    expect(cancelled.locator("s")).to_have_text("Doctor")

    choice = page.get_by_label("Whose visits")
    for _ in range(40):
        page.keyboard.press("Tab")
        if choice.evaluate("el => el === document.activeElement"):
            break
    expect(choice).to_be_focused()
    choice.select_option(label="Walter Stone")
    page.keyboard.press("Tab")
    show = page.get_by_role("button", name="Show")
    expect(show).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**recipient={world['walter'].pk}**")
    expect(page.get_by_test_id("calendar-visit")).to_have_count(1)
    expect(page.get_by_test_id("calendar-visit")).to_contain_text("Errands")
    expect(page.get_by_test_id("recipient-feed-url")).to_have_value(
        page.get_by_test_id("feed-url").input_value() + f"?recipient={world['walter'].pk}"
    )

    # On to the calendar's navigation: the next week, then back to the month, keeping the choice.
    following = page.get_by_role("link", name="Next week")
    for _ in range(10):
        page.keyboard.press("Tab")
        if following.evaluate("el => el === document.activeElement"):
            break
    expect(following).to_be_focused()
    next_monday = DAY - dt.timedelta(days=DAY.weekday()) + dt.timedelta(days=7)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**date={next_monday.isoformat()}**")
    assert f"recipient={world['walter'].pk}" in page.url
    expect(page.get_by_test_id("calendar-days").locator("> li")).to_have_count(7)
    month = page.get_by_role("link", name="Month", exact=True)
    month.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**view=month**")
    expect(page.get_by_test_id("calendar-title")).to_have_text(next_monday.strftime("%B %Y"))
