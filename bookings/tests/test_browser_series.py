"""Recurring visits in Chromium: a client posts a weekly series of 3, the provider
accepts it from the request's page, the dashboard shows the visits grouped, and the client cancels
the rest of the series from the second visit. Dates far enough ahead for the 48-hour rule."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import Booking, BookingStatus
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.models import Repeat, RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tuesday(days_ahead: int) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=days_ahead)
    return day + dt.timedelta(days=(1 - day.weekday()) % 7)


def _short(day: dt.date, weekday: bool = True) -> str:
    text = f"{day:%b} {day.day}"
    return f"{day:%a} {text}" if weekday else text


def test_a_weekly_series_is_posted_accepted_grouped_and_its_rest_cancelled(
    live_server, new_context, client_user, verified_provider
):
    base = live_server.url
    first = _tuesday(10)
    client_page = new_context().new_page()
    provider_page = new_context().new_page()
    sign_in_browser(client_page, base, client_user)
    sign_in_browser(provider_page, base, verified_provider.user)

    # The client posts a weekly series of 3.
    page = client_page
    page.goto(f"{base}/request-service")
    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill("Weekly wellness check")
    page.get_by_label("Description").fill("A friendly visit to check in and help around the house.")
    page.get_by_label("Preferred date").fill(first.isoformat())
    page.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
    page.get_by_label("Repeat", exact=True).select_option(label="Every week")
    page.get_by_label("After a number of visits").check()
    page.get_by_label("Number of visits", exact=True).fill("27")
    page.get_by_label("Title").click()
    expect(page.locator("#request-repeatCount-error")).to_have_text(
        "A series can have at most 26 visits; this one would have 27."
    )
    page.get_by_label("Number of visits", exact=True).fill("3")
    week = dt.timedelta(weeks=1)
    expect(page.get_by_test_id("request-series-summary")).to_have_text(
        f"3 visits: {_short(first)}, {_short(first + week, False)}, {_short(first + 2 * week, False)}"
    )
    page.get_by_label("Street address").fill("12 Elm Street")
    page.get_by_label("Town").fill("Springfield")
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Submit Request").click()
    page.wait_for_url(f"{base}/", timeout=10000)
    request = ServiceRequest.objects.get(title="Weekly wellness check")
    assert (request.repeat, request.repeat_count, request.repeat_until) == (Repeat.WEEKLY, 3, None)

    # The provider sees the series on the request's page and accepts it whole.
    provider_page.goto(f"{base}/service-request-details?id={request.pk}")
    expect(provider_page.get_by_test_id("request-repeat")).to_contain_text("Every week: 3 visits")
    assert_no_axe_violations(provider_page)
    provider_page.get_by_role("button", name="Accept Request").click()
    expect(provider_page.get_by_text("Service request accepted!")).to_be_visible()
    visits = list(Booking.objects.filter(service_request=request).order_by("series_index"))
    assert [v.scheduled_date for v in visits] == [first, first + week, first + 2 * week]

    # The client's dashboard shows the three visits as one series.
    page.goto(f"{base}/dashboard")
    series = page.get_by_test_id("booking-series")
    expect(series).to_have_count(1)
    expect(series.get_by_test_id("series-summary")).to_have_text(f"Every week · 3 visits · next {_short(first)}")
    expect(series.get_by_test_id("booking-item")).to_have_count(3)
    expect(series.get_by_role("link", name=re.compile("Pay now"))).to_have_count(3)
    # Paying one visit pays that visit only: the first to pay says so, once for the series.
    expect(series.get_by_test_id("series-pay-note")).to_have_count(1)
    expect(series.get_by_test_id("series-pay-note")).to_have_text(
        "This is visit 1 of 3 in a weekly series; each visit is paid separately."
    )
    assert_no_axe_violations(page)

    # ...and cancels the rest from the second visit.
    second = series.get_by_test_id("booking-item").nth(1)
    second.get_by_role("button", name="Cancel the rest of the series").click()
    dialog = page.get_by_test_id("cancel-rest-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("cancel-refund")).to_have_text(
        "2 visits will be cancelled. Nothing was charged for them, so there is nothing to refund."
    )
    assert_no_axe_violations(page)
    dialog.get_by_role("button", name="Cancel these visits").click()
    expect(page.get_by_test_id("toast").filter(has_text="2 visits cancelled.")).to_be_visible()
    expect(series.get_by_test_id("series-summary")).to_have_text(f"Every week · 3 visits · next {_short(first)}")
    expect(series.get_by_test_id("booking-item").nth(2)).to_contain_text("Cancelled")
    statuses = [Booking.objects.get(pk=v.pk).status for v in visits]
    assert statuses == [BookingStatus.SCHEDULED, BookingStatus.CANCELLED, BookingStatus.CANCELLED]
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED


def test_the_edit_page_offers_the_repeat_with_the_servers_words(live_server, page: Page, client_user):
    first = _tuesday(10)
    request = ServiceRequestFactory(client=client_user, preferred_date=first, repeat=Repeat.WEEKLY, repeat_count=4)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.pk}")
    expect(page.get_by_label("Repeat", exact=True)).to_have_value("weekly")
    expect(page.get_by_label("Number of visits", exact=True)).to_have_value("4")
    page.get_by_label("On a date").check()
    page.get_by_label("Last visit on or before").fill((first + dt.timedelta(weeks=26)).isoformat())
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Save Changes").click()
    expect(page.locator("#edit-repeatUntil-error")).to_contain_text("A series can have at most 26 visits")
    page.get_by_label("Last visit on or before").fill((first + dt.timedelta(weeks=2)).isoformat())
    expect(page.get_by_test_id("edit-series-summary")).to_contain_text("3 visits:")
    page.get_by_role("button", name="Save Changes").click()
    page.wait_for_url(f"{live_server.url}/", timeout=10000)
    request.refresh_from_db()
    assert (request.repeat_count, request.repeat_until) == (None, first + dt.timedelta(weeks=2))
