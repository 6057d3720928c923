"""/admin's Market tab in Chromium: the fill rate, the median time to accept and the unfilled areas
of requests made at known times, the chart drawn, and its numbers reachable as a table by keyboard."""

from __future__ import annotations

import datetime as dt
import gzip

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import Booking, Replacement, ReplacementCause, ReplacementState
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _posted(days_ago: float, *, booked_after_minutes: int | None = None, zip_code: str = "62704") -> None:
    now = timezone.now()
    request = ServiceRequestFactory(zip_code=zip_code, town="Springfield", state="IL")
    posted = now - dt.timedelta(days=days_ago)
    ServiceRequest.objects.filter(pk=request.pk).update(created_at=posted)
    if booked_after_minutes is not None:
        booking = BookingFactory(service_request=request)
        Booking.objects.filter(pk=booking.pk).update(created_at=posted + dt.timedelta(minutes=booked_after_minutes))
        ServiceRequest.objects.filter(pk=request.pk).update(status=RequestStatus.BOOKED)


def test_staff_see_the_market_with_a_chart_and_its_table(live_server, page: Page, admin_user):
    _posted(2, booked_after_minutes=20)
    _posted(3, booked_after_minutes=40)
    _posted(4, booked_after_minutes=60)
    _posted(5)  # nobody took it
    _posted(12)  # nobody took it, the 30 days only
    left = BookingFactory(service_request=ServiceRequestFactory())  # its helper cancelled yesterday
    ServiceRequest.objects.filter(pk=left.service_request_id).update(created_at=timezone.now() - dt.timedelta(days=60))
    Replacement.objects.create(
        booking=left,
        left_provider=left.provider,
        cause=ReplacementCause.HELPER_CANCELLED,
        state=ReplacementState.SEEKING,
        started_at=timezone.now() - dt.timedelta(days=1),
        deadline=timezone.now() + dt.timedelta(hours=6),
    )
    sign_in_browser(page, live_server.url, admin_user)
    # The page's JavaScript, gzipped as WhiteNoise sends it: within the 100 KB of every page
    # (marketplace/tests/test_browser_js_weight.py); the chart's (uPlot) comes only with its tab.
    scripts: dict[str, int] = {}

    def record(response) -> None:
        if response.request.resource_type == "script" and response.ok:
            scripts[response.url] = len(gzip.compress(response.body(), compresslevel=9))

    page.route("**/*", lambda route: route.continue_())  # no HTTP cache: every script weighed
    page.on("response", record)
    page.goto(f"{live_server.url}/admin", wait_until="networkidle")
    assert not any("uPlot" in url for url in scripts)
    assert sum(scripts.values()) <= 100 * 1024, scripts

    page.get_by_role("tab", name="Market").click()
    fill = page.get_by_test_id("market-fill-rate")
    expect(fill).to_contain_text("75%")  # 3 of the 4 of the last 7 days
    expect(fill).to_contain_text("60%")  # 3 of 5 over 30 days
    expect(page.get_by_test_id("market-median")).to_contain_text("40 min")
    expect(page.get_by_test_id("market-replacements")).to_have_text("Replacements needed11")
    expect(page.get_by_test_id("market-areas-7")).to_contain_text("Springfield, IL")
    expect(page.get_by_test_id("market-areas-30").get_by_role("cell", name="2", exact=True)).to_be_visible()

    chart = page.get_by_role("img", name="Line chart of the last 30 days")
    expect(chart).to_contain_text("Posted")  # uPlot's legend, once it has drawn
    expect(chart.locator("canvas")).to_have_count(1)
    assert any("uPlot" in url for url in scripts), scripts
    expect(chart).to_have_attribute(
        "aria-label",
        "Line chart of the last 30 days: 5 requests posted, 3 of them booked within 24 hours. "
        "The numbers are in the table below the chart.",
    )

    # The table alternative, by keyboard.
    summary = page.get_by_text("Show the chart's numbers as a table")
    summary.focus()
    page.keyboard.press("Enter")
    daily = page.get_by_test_id("market-daily")
    expect(daily).to_be_visible()
    expect(daily.locator("tbody tr")).to_have_count(30)
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44
