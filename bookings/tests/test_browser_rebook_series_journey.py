"""Rebook a helper and recurring visits, end to end in Chromium: a client rebooks last week's helper as a weekly
series of 4 ("Book again" on the dashboard, on a phone 375 px wide); the helper sees it "Asked for
you" and accepts; both calendars show the 4 visits; the client cancels the third; both private
feeds (fetched as a calendar app would, without the browser's session) show it cancelled and the
other three not. axe on each screen on the way."""

from __future__ import annotations

import datetime as dt
import re
import urllib.request
from decimal import Decimal

import pytest
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import Page, expect

from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.models import WeeklyHours
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import Repeat, RequestStatus, ServiceRequest, TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WEEK = dt.timedelta(weeks=1)
PHONE = {"width": 375, "height": 812}


def _tuesday(days_ahead: int) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=days_ahead)
    return day + dt.timedelta(days=(1 - day.weekday()) % 7)


def _short(day: dt.date, weekday: bool = True) -> str:
    text = f"{day:%b} {day.day}"
    return f"{day:%a} {text}" if weekday else text


def _fits_the_phone(page: Page, where: str) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1] + 1, f"{where} scrolls sideways at 375 px: {width}"


def _feed(page: Page) -> dict[str, dict]:
    """The feed shown on /calendar, read over plain HTTP (no cookies): {uid: {status, date, summary}}."""
    url = page.get_by_test_id("feed-url").input_value()
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/calendar")
        body = response.read()
    events = {}
    for event in Calendar.from_ical(body).walk("VEVENT"):
        events[str(event["UID"])] = {
            "status": str(event.get("STATUS", "")),
            "date": event.decoded("DTSTART").date(),
            "summary": str(event["SUMMARY"]),
        }
    return events


def _calendar_shows_the_series(page: Page, base: str, dates: list[dt.date], context: str) -> None:
    """/calendar by week from the first visit, on with "Next week": each week holds its visit."""
    page.goto(f"{base}/calendar?view=week&date={dates[0].isoformat()}")
    assert_no_axe_violations(page, context=context)
    if page.viewport_size == PHONE:
        _fits_the_phone(page, context)
    for index, day in enumerate(dates, start=1):
        if index > 1:
            page.get_by_role("link", name="Next week").click()
        visit = page.locator(f'.calendar-day[data-date="{day.isoformat()}"]').get_by_test_id("calendar-visit")
        expect(visit).to_have_count(1)
        expect(visit).to_contain_text("Tablet lessons")
        expect(visit).to_contain_text(f"Visit {index} of 4")
        expect(visit).to_contain_text("8:00 AM to 9:30 AM")
        expect(page.get_by_test_id("calendar-visit")).to_have_count(1)


@pytest.fixture
def two_contexts(browser):
    """The client's context at phone width and the provider's at the default width, closed even when
    the test fails."""
    contexts = [browser.new_context(viewport=PHONE), browser.new_context()]
    yield contexts
    for context in contexts:
        context.close()


def test_a_client_rebooks_last_weeks_helper_weekly_and_cancels_the_third_visit(live_server, two_contexts, client_user):
    base = live_server.url
    vera = VerifiedProviderFactory(
        user__first_name="Vera", user__last_name="Lang", specialties=["tech-support"], hourly_rate=Decimal("30")
    )
    # Vera helps on Tuesday mornings only: the series must fall inside her hours.
    WeeklyHours.objects.create(provider=vera, weekday=1, start_time=dt.time(8), end_time=dt.time(13))
    last_week = timezone.localdate() - WEEK
    past = BookingFactory(
        service_request=ServiceRequestFactory(
            client=client_user,
            title="Tablet lessons",
            description="Show me how to make video calls to my grandchildren.",
            preferred_date=last_week,
            preferred_time=TimeWindow.MORNING,
            estimated_duration=90,
            status=RequestStatus.COMPLETED,
        ),
        provider=vera,
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
    )
    first = _tuesday(10)
    dates = [first + n * WEEK for n in range(4)]

    client, provider = (context.new_page() for context in two_contexts)
    sign_in_browser(client, base, client_user)
    sign_in_browser(provider, base, vera.user)

    # The client, on a phone: Book again on last week's visit.
    client.goto(f"{base}/dashboard")
    done = client.get_by_test_id("booking-item").filter(has_text="Tablet lessons")
    expect(done).to_contain_text("Completed")
    assert_no_axe_violations(client, context="client dashboard, last week's visit (375 px)")
    _fits_the_phone(client, "client dashboard, last week's visit (375 px)")
    done.get_by_role("link", name="Book again").click()
    expect(client).to_have_url(f"{base}/request-service?provider={vera.pk}&from={past.pk}")
    expect(client.get_by_test_id("asked-provider")).to_have_text(
        "You're asking Vera directly. Vera offers: Technology Support."
    )
    expect(client.get_by_label("Title")).to_have_value("Tablet lessons")
    expect(client.get_by_label("Estimated duration (minutes)")).to_have_value("90")

    # ...a weekly series of 4 from a Tuesday 10+ days ahead (every cancel is 48+ hours away).
    client.get_by_label("Preferred date").fill(first.isoformat())
    client.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
    client.get_by_label("Repeat", exact=True).select_option(label="Every week")
    client.get_by_label("After a number of visits").check()
    client.get_by_label("Number of visits", exact=True).fill("4")
    expect(client.get_by_test_id("request-series-summary")).to_have_text(
        f"4 visits: {_short(first)}, " + ", ".join(_short(day, False) for day in dates[1:])
    )
    assert_no_axe_violations(client, context="/request-service, Book again as a weekly series (375 px)")
    _fits_the_phone(client, "/request-service, Book again as a weekly series (375 px)")
    client.get_by_role("button", name="Submit Request").click()
    expect(client.get_by_test_id("toast")).to_contain_text("Request sent to Vera!")
    # The form goes home 2 s after the toast: wait for it, or it aborts the next goto.
    client.wait_for_url(f"{base}/")
    request = ServiceRequest.objects.exclude(pk=past.service_request_id).get(title="Tablet lessons")
    assert (request.requested_provider, request.repeat, request.repeat_count) == (vera, Repeat.WEEKLY, 4)
    assert request.preferred_date == first

    # Vera: "Asked for you", every week, 4 visits; she accepts the whole series.
    provider.goto(f"{base}/dashboard")
    asked = provider.get_by_test_id("request-item").filter(has=provider.get_by_test_id("asked-for-you"))
    expect(asked).to_have_count(1)
    expect(asked).to_contain_text("Tablet lessons")
    expect(asked.get_by_test_id("asked-for-you")).to_contain_text(re.compile(r"Asked for you\s+Only you can accept"))
    expect(asked.get_by_test_id("request-repeat")).to_have_text("Every week · 4 visits")
    assert_no_axe_violations(provider, context="provider dashboard, asked for a series")
    asked.get_by_role("button", name="Accept").click()
    expect(provider.get_by_test_id("toast")).to_contain_text("Service request accepted!")
    visits = list(Booking.objects.filter(service_request=request).order_by("series_index"))
    assert [v.scheduled_date for v in visits] == dates
    assert {v.provider_id for v in visits} == {vera.pk}

    # Both calendars show the 4 visits, a week apart.
    _calendar_shows_the_series(client, base, dates, "client /calendar, week view (375 px)")
    _calendar_shows_the_series(provider, base, dates, "provider /calendar, week view")

    # The client cancels the third visit from the series on the dashboard.
    client.goto(f"{base}/dashboard")
    series = client.get_by_test_id("booking-series")
    expect(series).to_have_count(1)
    expect(series.get_by_test_id("series-summary")).to_have_text(f"Every week · 4 visits · next {_short(first)}")
    items = series.get_by_test_id("booking-item")
    expect(items).to_have_count(4)
    third = items.nth(2)
    expect(third).to_contain_text("Visit 3 of 4")
    expect(third).to_contain_text(_short(dates[2], False))
    assert_no_axe_violations(client, context="client dashboard, the series (375 px)")
    _fits_the_phone(client, "client dashboard, the series (375 px)")
    third.get_by_role("button", name="Cancel this visit").click()
    dialog = client.get_by_test_id("cancel-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Tablet lessons")
    dialog.get_by_label("Reason for cancellation (optional)").fill("We are away that week.")
    assert_no_axe_violations(client, context="the cancel dialog (375 px)")
    _fits_the_phone(client, "the cancel dialog (375 px)")
    dialog.get_by_role("button", name="Cancel Booking").click()
    expect(dialog).to_have_count(0)
    expect(client.get_by_test_id("toast").filter(has_text="Booking Cancelled")).to_be_visible()
    expect(third).to_contain_text("Cancelled")
    for other in (0, 1, 3):
        expect(items.nth(other)).not_to_contain_text("Cancelled")
    statuses = [Booking.objects.get(pk=v.pk).status for v in visits]
    assert statuses == [
        BookingStatus.SCHEDULED,
        BookingStatus.SCHEDULED,
        BookingStatus.CANCELLED,
        BookingStatus.SCHEDULED,
    ]

    # The calendars show it struck through; both feeds (read without a session) say CANCELLED for it only.
    for page, who in ((client, "client"), (provider, "provider")):
        page.goto(f"{base}/calendar?view=week&date={dates[2].isoformat()}")
        cancelled = page.get_by_test_id("calendar-visit")
        expect(cancelled).to_have_count(1)
        expect(cancelled).to_contain_text("Cancelled")
        expect(cancelled.locator("s")).to_have_text("Tablet lessons")
        assert_no_axe_violations(page, context=f"{who} /calendar, the cancelled visit")
        events = _feed(page)
        for index, visit in enumerate(visits):
            event = events[f"booking-{visit.pk}@kindly"]
            assert event["date"] == visit.scheduled_date
            if index == 2:
                assert event["status"] == "CANCELLED", (who, event)
                assert event["summary"].startswith("Cancelled: Kindly: Tablet lessons")
            else:
                # Booked, not paid yet: TENTATIVE (bookings.calendar), and not cancelled.
                assert event["status"] == "TENTATIVE", (who, index, event)
                assert not event["summary"].startswith("Cancelled")
        # Last week's visit is in the feed too, as it was.
        assert events[f"booking-{past.pk}@kindly"]["status"] == "CONFIRMED"
