"""Dashboard journeys in Chromium: cancel (and the 48-hour rule), mark completed, review, unread badge."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus, Review
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import check_in_and_out, sign_in_browser
from messaging.services import system_notify
from messaging.tests.factories import SystemMessageFactory
from requests_app.models import TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CANCEL_BLOCKED = "This booking cannot be cancelled (less than 48 hours remaining)."


def booking_for(client, *, days: int, status: str, title: str, payment: str = PaymentStatus.PENDING, provider=None):
    extra = {"provider": provider} if provider else {}
    return BookingFactory(
        service_request__client=client,
        service_request__title=title,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
        service_request__preferred_time=TimeWindow.MORNING,
        status=status,
        payment_status=payment,
        total_amount=Decimal("45.00"),
        **extra,
    )


def test_client_cancels_a_booking_more_than_48_hours_away(live_server, page: Page, client_user):
    booking = booking_for(
        client_user, days=7, status=BookingStatus.CONFIRMED, title="Set up my new tablet", payment=PaymentStatus.PAID
    )
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")

    card = page.get_by_test_id("bookings-card")
    expect(card.get_by_role("heading", name="Your Bookings")).to_be_visible()
    item = card.get_by_test_id("booking-item")
    expect(item).to_contain_text("Set up my new tablet")
    expect(item).to_contain_text("$45.00")
    expect(item).to_contain_text("Morning (8AM - 12PM)")
    expect(item.get_by_test_id("status-badge")).to_have_text("Confirmed")
    # Paid: no "Pay now".
    expect(item.get_by_role("link", name="Pay now")).to_have_count(0)

    item.get_by_role("button", name="Cancel Booking").click()
    dialog = page.get_by_role("dialog", name="Cancel Booking")
    expect(dialog).to_contain_text("Are you sure you want to cancel this booking? This action cannot be undone.")
    expect(dialog).to_contain_text("Bookings can be cancelled up to 48 hours before the scheduled time.")
    dialog.get_by_label("Reason for cancellation (optional)").fill("My daughter can help instead.")
    dialog.get_by_role("button", name="Cancel Booking").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Booking Cancelled")
    expect(toast).to_contain_text("Your booking has been successfully cancelled.")
    expect(dialog).to_be_hidden()
    expect(item.get_by_test_id("status-badge")).to_have_text("Cancelled")
    expect(item.get_by_role("button", name="Cancel Booking")).to_have_count(0)

    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED
    assert booking.cancellation_reason == "My daughter can help instead."
    assert booking.cancelled_by_id == client_user.pk


def test_keep_booking_closes_the_dialog_and_changes_nothing(live_server, page: Page, client_user):
    booking = booking_for(client_user, days=5, status=BookingStatus.SCHEDULED, title="Groceries")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Cancel Booking").click()
    dialog = page.get_by_role("dialog", name="Cancel Booking")
    dialog.get_by_role("button", name="Keep Booking").click()
    expect(dialog).to_be_hidden()
    # Focus goes back to the button that opened the dialog.
    expect(page.get_by_role("button", name="Cancel Booking")).to_be_focused()
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED


def test_booking_under_48_hours_away_shows_the_replacement_text(live_server, page: Page, client_user):
    booking = booking_for(client_user, days=1, status=BookingStatus.SCHEDULED, title="Doctor visit")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item")
    expect(item).to_contain_text("Doctor visit")
    expect(item.get_by_test_id("cancel-blocked")).to_have_text(CANCEL_BLOCKED)
    expect(item.get_by_role("button", name="Cancel Booking")).to_have_count(0)
    # Scheduled and unpaid: the client can pay.
    expect(item.get_by_role("link", name="Pay now")).to_have_attribute("href", f"/checkout/{booking.pk}")


def test_a_failed_payment_can_be_tried_again_from_the_dashboard(live_server, page: Page, client_user):
    booking = booking_for(
        client_user, days=7, status=BookingStatus.SCHEDULED, title="Tablet help", payment=PaymentStatus.FAILED
    )
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item")
    expect(item).to_contain_text("Tablet help")
    expect(item.get_by_role("link", name="Pay now")).to_have_attribute("href", f"/checkout/{booking.pk}")


def test_client_with_nothing_sees_the_empty_states(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    bookings = page.get_by_test_id("bookings-card")
    expect(bookings).to_contain_text("No bookings yet")
    expect(bookings.get_by_role("link", name="Request Your First Service")).to_have_attribute(
        "href", "/request-service"
    )
    requests = page.get_by_test_id("requests-card")
    expect(requests).to_contain_text("No service requests yet")
    expect(requests.get_by_role("link", name="Create Your First Request")).to_have_attribute("href", "/request-service")
    help_card = page.get_by_role("region", name="Want to Help Others?")
    expect(help_card.get_by_role("link", name="Become a Provider")).to_have_attribute("href", "/provider-signup")
    expect(page.get_by_role("link", name="Browse Providers")).to_have_attribute("href", "/providers")
    expect(page.get_by_text("Recent Activity")).to_be_visible()


def test_provider_checks_in_and_out_of_a_visit_with_its_report(live_server, page: Page, verified_provider):
    past = booking_for(
        UserFactory(),
        days=-1,
        status=BookingStatus.CONFIRMED,
        title="Weekly wellness check",
        payment=PaymentStatus.PAID,
        provider=verified_provider,
    )
    booking_for(
        UserFactory(), days=6, status=BookingStatus.SCHEDULED, title="Future errand", provider=verified_provider
    )
    open_request = ServiceRequestFactory(title="Help with my printer", urgency="high", max_budget=Decimal("40"))

    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_role("heading", name="Upcoming Appointments")).to_be_visible()
    # Today's Schedule counts the visits of today: yesterday's and next week's are not.
    expect(page.get_by_test_id("tile-schedule")).to_contain_text("0")
    expect(page.get_by_test_id("tile-completed")).to_contain_text("0")
    # The provider has a profile: no "Want to Help Others?".
    expect(page.get_by_role("heading", name="Want to Help Others?")).to_have_count(0)

    available = page.get_by_test_id("requests-card")
    expect(available.get_by_role("heading", name="Available Requests")).to_be_visible()
    request_item = available.get_by_test_id("request-item")
    expect(request_item).to_contain_text("Help with my printer")
    expect(request_item).to_contain_text("High urgency")
    expect(request_item).to_contain_text("$40.00")
    expect(request_item.get_by_role("link", name="View Details")).to_have_attribute(
        "href", f"/service-request-details?id={open_request.pk}"
    )

    past_item = page.get_by_test_id("booking-item").filter(has_text="Weekly wellness check")
    future_item = page.get_by_test_id("booking-item").filter(has_text="Future errand")
    # Nothing to do yet on a visit days ahead; the one that has started offers Check in, then Check out.
    expect(future_item.get_by_role("button", name="Check in")).to_have_count(0)
    check_in_and_out(page, past_item)

    expect(page.get_by_test_id("toast").last).to_contain_text("Checked out")
    expect(past_item.get_by_test_id("status-badge")).to_have_text("Completed")
    # Within 24 hours the report can still be corrected.
    expect(past_item.get_by_role("button", name="Correct the visit report")).to_be_visible()
    expect(page.get_by_test_id("tile-completed")).to_contain_text("1")
    past.refresh_from_db()
    assert past.status == BookingStatus.COMPLETED
    assert past.checked_in_at is not None and past.checked_out_at is not None
    assert past.report.wellbeing == 4


def test_client_reviews_a_completed_booking(live_server, page: Page, client_user):
    booking = booking_for(
        client_user, days=-3, status=BookingStatus.COMPLETED, title="Tidy the pantry", payment=PaymentStatus.PAID
    )
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item")
    expect(item.get_by_test_id("new-helper")).to_be_visible()
    expect(item.get_by_test_id("star-rating")).to_contain_text("(0 reviews)")
    item.get_by_role("button", name="Leave a Review").click()

    dialog = page.get_by_role("dialog", name="Leave a Review")
    expect(dialog).to_contain_text('How was your visit for "Tidy the pantry"?')
    # Submitting without a rating says so next to the field.
    dialog.get_by_role("button", name="Submit Review").click()
    expect(dialog.get_by_test_id("review-rating-error")).to_have_text("Please choose a rating from 1 to 5.")
    assert not Review.objects.exists()

    dialog.get_by_label("4 stars").check()
    expect(dialog.get_by_test_id("review-rating-error")).to_have_text("")
    dialog.get_by_label("Comment (optional)").fill("Patient and cheerful.")
    dialog.get_by_role("button", name="Submit Review").click()

    expect(page.get_by_test_id("toast")).to_contain_text("Review Submitted")
    expect(dialog).to_be_hidden()
    expect(item.get_by_role("button", name="Leave a Review")).to_have_count(0)
    expect(item).to_contain_text("Thank you for your review.")
    # The helper's rating on the page follows the review at once, without a reload.
    expect(item.get_by_test_id("star-rating")).to_contain_text("(1 review)")
    expect(item.get_by_test_id("new-helper")).to_have_count(0)
    review = Review.objects.get(booking=booking)
    assert (review.rating, review.comment, review.reviewer_id) == (4, "Patient and cheerful.", client_user.pk)
    booking.provider.refresh_from_db()
    assert booking.provider.rating == Decimal("4.00") and booking.provider.total_reviews == 1

    # After a reload the server remembers the review.
    page.reload()
    expect(page.get_by_test_id("booking-item")).to_contain_text("Thank you for your review.")
    expect(page.get_by_role("button", name="Leave a Review")).to_have_count(0)


def test_unread_badge_shows_the_unread_count(live_server, page: Page, client_user):
    SystemMessageFactory(receiver=client_user)
    SystemMessageFactory(receiver=client_user)
    SystemMessageFactory(receiver=client_user, is_read=True)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("unread-badge")).to_have_text("2 unread")


def test_only_the_first_three_bookings_are_listed(live_server, page: Page, client_user):
    for i in range(4):
        booking_for(client_user, days=10 + i, status=BookingStatus.SCHEDULED, title=f"Visit {i}")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("booking-item")).to_have_count(3)
    assert Booking.objects.filter(client=client_user).count() == 4


def test_unread_badge_follows_new_messages_without_a_reload(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("tile-messages")).to_be_visible()
    expect(page.get_by_test_id("unread-badge")).to_have_count(0)
    system_notify(receivers=[client_user], content="Your provider is on the way.")
    # Live over the websocket, or by the 10 s poll when the socket is down (the WSGI live server).
    expect(page.get_by_test_id("unread-badge")).to_have_text("1 unread", timeout=15_000)


def test_lost_session_shows_the_toast_and_goes_to_sign_in_again(live_server, page: Page, client_user):
    booking = booking_for(client_user, days=7, status=BookingStatus.SCHEDULED, title="Garden tidy")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    page.get_by_role("button", name="Cancel Booking").click()
    # The session ends on the server while the page is open.
    Session.objects.all().delete()
    page.get_by_role("dialog").get_by_role("button", name="Cancel Booking").click()
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Unauthorized")
    expect(toast).to_contain_text("You are logged out. Logging in again...")
    page.wait_for_url("**/login**", timeout=5000)
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED


def test_available_requests_are_the_three_newest_of_others_and_come_with_the_page(
    live_server, page: Page, verified_provider
):
    older = [ServiceRequestFactory(title=f"Older request {i}") for i in range(2)]
    newest = [ServiceRequestFactory(title=f"New request {i}") for i in range(3)]
    ServiceRequestFactory(client=verified_provider.user, title="My own request")
    assert older[0].created_at < newest[0].created_at

    sign_in_browser(page, live_server.url, verified_provider.user)
    api_calls = record_api_calls(page)
    page.goto(f"{live_server.url}/dashboard")
    items = page.get_by_test_id("requests-card").get_by_test_id("request-item")
    expect(items).to_have_count(3)
    for request in newest:
        expect(items.filter(has_text=request.title)).to_have_count(1)
    expect(items.filter(has_text="Older request")).to_have_count(0)
    expect(items.filter(has_text="My own request")).to_have_count(0)
    page.wait_for_load_state("networkidle")
    assert api_calls == []


def record_api_calls(page: Page) -> list[str]:
    """The /api/ URLs the page requests from now on (a live list)."""
    calls: list[str] = []
    page.on("request", lambda request: calls.append(request.url) if "/api/" in request.url else None)
    return calls


def test_the_dashboard_paints_its_lists_tiles_and_badge_without_calling_the_api(
    live_server, page: Page, verified_provider
):
    booking_for(
        UserFactory(), days=3, status=BookingStatus.SCHEDULED, title="Fix the doorbell", provider=verified_provider
    )
    for i in range(2):
        booking_for(
            UserFactory(), days=-3 - i, status=BookingStatus.COMPLETED, title=f"Done {i}", provider=verified_provider
        )
    ServiceRequestFactory(title="Help me set up my phone")
    SystemMessageFactory(receiver=verified_provider.user)
    sign_in_browser(page, live_server.url, verified_provider.user)

    api_calls = record_api_calls(page)
    # The island's first render, before anything else can run: what it painted, and what was asked by then.
    page.add_init_script(
        """
        new MutationObserver((_, observer) => {
          const root = document.querySelector('[data-island="dashboard"]');
          if (!root) return;
          observer.disconnect();
          window.__firstPaint = {
            html: root.innerText,
            api: performance.getEntriesByType("resource").filter((e) => e.name.includes("/api/")).map((e) => e.name),
          };
        }).observe(document, { childList: true, subtree: true });
        """
    )
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("tile-schedule")).to_contain_text("0")  # the doorbell is in 3 days
    expect(page.get_by_test_id("tile-completed")).to_contain_text("2")
    expect(page.get_by_test_id("unread-badge")).to_have_text("1 unread")
    first = page.evaluate("window.__firstPaint")
    assert first["api"] == []
    assert "Fix the doorbell" in first["html"]
    assert "Help me set up my phone" in first["html"]
    page.wait_for_load_state("networkidle")
    assert api_calls == []
