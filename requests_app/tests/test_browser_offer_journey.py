"""The journey of an offer: a family posts a request for a placed recipient; the nearest free helper
is offered it (the one too far away is not), sees it in Available Requests with its distance,
accepts with an arrival time inside the window, and both sides read "... will arrive at 2:00 PM".
axe on each page, at 390 px."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import Booking
from circles.services import recipient_for_self
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory
from requests_app import services, tasks
from requests_app.models import Offer, OfferedTo, ServiceCategory, ServiceRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME = (39.7817, -89.6501)


def test_the_nearest_free_helper_is_offered_it_and_accepts_with_an_arrival_time(
    live_server, page: Page, client_user, monkeypatch
):
    # Offers run from Celery after the commit: here, in the live server's process.
    monkeypatch.setattr(tasks.offer_request, "delay", lambda pk: tasks.offer_request.apply(args=[pk]))
    page.set_viewport_size({"width": 390, "height": 844})
    recipient = recipient_for_self(user=client_user)
    recipient.street, recipient.town, recipient.state, recipient.zip_code = "1 Oak Lane", "Springfield", "IL", "62701"
    recipient.latitude, recipient.longitude = HOME
    recipient.place_status = "located"
    recipient.save()
    vera = VerifiedProviderFactory(
        user__first_name="Vera",
        specialties=["tech-support"],
        hourly_rate=Decimal("30"),
        latitude=HOME[0] + 0.03,
        longitude=HOME[1],
        travel_miles=10,
    )
    otto = VerifiedProviderFactory(
        user__first_name="Otto",
        specialties=["tech-support"],
        latitude=HOME[0] + 1.0,  # about 69 miles north, beyond his 25
        longitude=HOME[1],
        travel_miles=25,
    )

    # The family posts the request.
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")
    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill("Video calls with my grandchildren")
    page.get_by_label("Description").fill("Please help me set up video calls on my new tablet.")
    page.get_by_label("Preferred date").fill((timezone.localdate() + dt.timedelta(days=5)).isoformat())
    page.get_by_label("Preferred time").select_option(label="Afternoon (12PM - 5PM)")
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Request")
    page.wait_for_url(f"{live_server.url}/")
    request = ServiceRequest.objects.get(title="Video calls with my grandchildren")
    assert request.offered_to == OfferedTo.OFFERS
    assert list(Offer.objects.filter(service_request=request).values_list("provider_id", flat=True)) == [vera.pk]

    # Vera sees it with its distance; Otto does not.
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, vera.user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("request-item").filter(has_text="Video calls with my grandchildren")
    expect(item.get_by_test_id("request-distance")).to_have_text("2.1 miles away")
    expect(item.get_by_test_id("request-when-where")).to_contain_text("Springfield")
    assert_no_axe_violations(page, context="/dashboard, an offer")
    item.get_by_role("link", name="View Details").click()
    arrival = page.get_by_label("When will you arrive?")
    expect(arrival.locator("option").first).to_have_text("12:00 PM")
    arrival.select_option(label="2:00 PM")
    assert_no_axe_violations(page, context="/service-request-details, arrival time")
    page.get_by_role("button", name="Accept Request").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Service request accepted!")
    booking = Booking.objects.get(service_request=request)
    assert booking.arrival_time == dt.time(14, 0) and booking.provider_id == vera.pk
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("booking-arrival").first).to_have_text("You will arrive at 2:00 PM")
    page.screenshot(path="/tmp/h3-offer-helper.png", full_page=True)

    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, otto.user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("requests-card")).to_contain_text("No new requests available")

    # The family reads the arrival time.
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("booking-arrival").first).to_have_text("Vera will arrive at 2:00 PM")
    assert_no_axe_violations(page, context="/dashboard, the family")
    page.screenshot(path="/tmp/h3-offer-family.png", full_page=True)


def test_not_for_me_passes_the_offer_to_the_next_helper_after_a_confirmation(
    live_server, page: Page, client_user, monkeypatch
):
    monkeypatch.setattr(tasks.offers_tell, "delay", lambda *args: tasks.offers_tell.apply(args=args))
    page.set_viewport_size({"width": 390, "height": 844})
    recipient = recipient_for_self(user=client_user)
    recipient.town, recipient.zip_code, recipient.place_status = "Springfield", "62701", "located"
    recipient.latitude, recipient.longitude = HOME
    recipient.save()
    vera, ana = (
        VerifiedProviderFactory(user__first_name=name, latitude=HOME[0] + north, longitude=HOME[1], travel_miles=25)
        for name, north in (("Vera", 0.03), ("Ana", 0.06))
    )
    request = ServiceRequest.objects.create(
        client=client_user,
        recipient=recipient,
        category=ServiceCategory.objects.get(slug="tech-support"),
        title="Help with my tablet",
        description="Please help me set up video calls.",
        preferred_date=timezone.localdate() + dt.timedelta(days=5),
        preferred_time="afternoon",
        offered_to=OfferedTo.OFFERS,
    )
    services.offers_send(service_request_id=request.pk)
    Offer.objects.filter(service_request=request, provider=ana).delete()  # Vera alone was offered it
    assert list(Offer.objects.filter(service_request=request).values_list("provider_id", flat=True)) == [vera.pk]

    sign_in_browser(page, live_server.url, vera.user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("request-item").filter(has_text="Help with my tablet")
    item.get_by_role("button", name="Not for Me").click()
    dialog = page.get_by_test_id("not-for-me-dialog")
    expect(dialog).to_contain_text("offered to another helper nearby")
    assert_no_axe_violations(page, context="/dashboard, Not for me")
    dialog.get_by_label("Why not? (optional)").fill("It is too far for me.")
    dialog.get_by_role("button", name="Not for Me").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Passed on")
    expect(page.get_by_test_id("request-item").filter(has_text="Help with my tablet")).to_have_count(0)
    answers = dict(Offer.objects.filter(service_request=request).values_list("provider__user__first_name", "answer"))
    assert answers == {"Vera": "declined", "Ana": ""}
