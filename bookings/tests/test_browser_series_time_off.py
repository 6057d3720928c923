"""A weekly series sent to a helper whose second date is her time off, in Chromium at 390 px: the
family is warned as they book (the date she is away), the helper's accept names it as time off
and she accepts the series without it; the family is told which date was left out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Booking
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from messaging.models import Message
from providers.models import TimeOff
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ServiceRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tuesday(days_ahead: int) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=days_ahead)
    return day + dt.timedelta(days=(1 - day.weekday()) % 7)


def test_a_direct_series_over_her_time_off_is_warned_and_accepted_without_that_date(
    live_server, new_context, client_user
):
    base = live_server.url
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Lang", specialties=["tech-support"])
    first = _tuesday(10)
    second = first + dt.timedelta(weeks=1)
    TimeOff.objects.create(provider=vera, first_day=second, last_day=second, note="Family visit")
    family = new_context(viewport={"width": 390, "height": 844}).new_page()
    helper = new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in_browser(family, base, client_user)
    sign_in_browser(helper, base, vera.user)

    family.goto(f"{base}/request-service?provider={vera.pk}")
    expect(family.get_by_test_id("asked-service")).to_have_text("You're asking Vera for Technology Support.")
    family.get_by_label("Title").fill("Weekly tablet help")
    family.get_by_label("Description").fill("Help with video calls to my grandchildren, every Tuesday.")
    family.get_by_label("Preferred date").fill(first.isoformat())
    family.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
    family.get_by_label("Street address").fill("3 Oak Lane")
    family.get_by_label("Town").fill("Springfield")
    family.get_by_label("Repeat", exact=True).select_option(label="Every week")
    family.get_by_label("After a number of visits").check()
    family.get_by_label("Number of visits", exact=True).fill("3")
    warning = family.get_by_test_id("asked-away")
    expect(warning).to_contain_text(f"Vera is away (time off) on {second:%a %b} {second.day}.")
    expect(warning).to_contain_text("Vera can accept the other visits without that date")
    assert_no_axe_violations(family, context="/request-service, a series over her time off (390 px)")
    family.screenshot(path="/tmp/h4_request_away_390.png", full_page=True)
    family.get_by_role("button", name="Submit Request").click()
    expect(family.get_by_test_id("toast")).to_contain_text("Request sent to Vera!")
    request = ServiceRequest.objects.get(title="Weekly tablet help")

    helper.goto(f"{base}/service-request-details?id={request.pk}")
    helper.get_by_role("button", name="Accept Request").click()
    expect(helper.get_by_test_id("accept-error")).to_contain_text(f"{second:%A, %B} {second.day} is your time off.")
    assert not Booking.objects.filter(service_request=request).exists()
    assert_no_axe_violations(helper, context="request details, accept refused over time off (390 px)")
    helper.get_by_role("button", name="Accept without that date").click()
    expect(helper.get_by_test_id("toast")).to_contain_text("Series accepted without the dates you cannot make")
    helper.screenshot(path="/tmp/h4_accept_without_390.png", full_page=True)
    booked = list(Booking.objects.filter(service_request=request).order_by("scheduled_date"))
    assert [b.scheduled_date for b in booked] == [first, first + dt.timedelta(weeks=2)]
    told = Message.objects.filter(receiver=client_user, content__contains="so those dates are not booked")
    assert told.exists()
