"""/admin at scale in Chromium: the page asks the server for counts, searches and pages instead of
downloading every provider, booking and request."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.vetting import with_evidence
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, bulk_providers
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def provider_names(group) -> list[str]:
    return group.get_by_test_id("admin-provider").locator(".admin-provider-name").all_inner_texts()


def test_admin_searches_and_pages_300_providers(live_server, page: Page, admin_user):
    # With a verified ID and a clear background check: approval follows the evidence.
    with_evidence(ProviderFactory(user__first_name="Zelda", user__last_name="Quill", user__email="zelda@example.com"))
    bulk_providers(119, status=VerificationStatus.PENDING, prefix="Pending")
    bulk_providers(150, status=VerificationStatus.VERIFIED, prefix="Vera")
    bulk_providers(30, status=VerificationStatus.REJECTED, prefix="Rex")
    asked: list[dict[str, list[str]]] = []
    page.on(
        "request",
        lambda r: asked.append(parse_qs(urlparse(r.url).query)) if "/api/admin/providers" in r.url else None,
    )
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")

    # The counts come from the server, over all 300.
    for label, value in (("Pending", "120"), ("Verified", "150"), ("Rejected", "30"), ("Total", "300")):
        expect(page.get_by_test_id(f"count-{label}")).to_contain_text(value)
    pending = page.get_by_test_id("group-pending-approval")
    verified = page.get_by_test_id("group-verified-providers")
    expect(pending.get_by_test_id("group-pending-approval-total")).to_have_text("(120)")
    expect(verified.get_by_test_id("group-verified-providers-total")).to_have_text("(150)")
    # One page of each group is on the page, not every provider.
    expect(page.get_by_test_id("admin-provider")).to_have_count(30)
    assert asked and all(int(q["limit"][0]) <= 10 for q in asked)
    assert_no_axe_violations(page, context="/admin with pages")

    # Paging through the verified providers: Next, Previous, and the last page.
    pager = verified.get_by_test_id("group-verified-providers-pager")
    expect(pager.get_by_test_id("group-verified-providers-pager-page")).to_have_text("Page 1 of 15")
    expect(verified.get_by_test_id("admin-provider").first).to_contain_text("Vera 150")
    first_page = provider_names(verified)
    pager.get_by_role("button", name="Next page of Verified Providers").click()
    expect(pager.get_by_test_id("group-verified-providers-pager-page")).to_have_text("Page 2 of 15")
    expect(pager).to_contain_text("showing 11–20 of 150")
    # Newest first: the page that was loaded last is on top.
    expect(verified.get_by_test_id("admin-provider").first).to_contain_text("Vera 140")
    expect(verified.get_by_test_id("admin-provider")).to_have_count(10)
    second_page = provider_names(verified)
    assert not set(first_page) & set(second_page)
    expect(verified.get_by_role("heading", name="Verified Providers")).to_be_focused()
    for _ in range(13):
        pager.get_by_role("button", name="Next page of Verified Providers").click()
    expect(pager.get_by_test_id("group-verified-providers-pager-page")).to_have_text("Page 15 of 15")
    expect(verified.get_by_test_id("admin-provider").first).to_contain_text("Vera 010")
    next_button = pager.get_by_role("button", name="Next page of Verified Providers")
    expect(next_button).to_have_attribute("aria-disabled", "true")
    pager.get_by_role("button", name="Previous page of Verified Providers").click()
    expect(pager.get_by_test_id("group-verified-providers-pager-page")).to_have_text("Page 14 of 15")

    # The server searches names, emails and specialties; the groups and their totals follow.
    search = page.get_by_label("Search providers")
    search.fill("ZELDA@")
    expect(pending.get_by_test_id("admin-provider")).to_have_count(1)
    expect(pending).to_contain_text("Zelda Quill")
    expect(pending.get_by_test_id("group-pending-approval-total")).to_have_text("(1)")
    expect(verified).to_contain_text("No providers found")
    assert any(q.get("search") == ["ZELDA@"] for q in asked)
    search.fill("vera 15")  # the full name "Vera 150"
    expect(verified.get_by_test_id("admin-provider")).to_have_count(1)
    expect(verified).to_contain_text("Vera 150")
    expect(pager).to_have_count(0)  # one page: no pager
    search.fill("technology")  # every provider here offers tech-support
    expect(verified.get_by_test_id("group-verified-providers-total")).to_have_text("(150)")
    expect(pending.get_by_test_id("group-pending-approval-total")).to_have_text("(120)")

    # Approving from a search result updates the counts from the server.
    search.fill("zelda")
    pending.get_by_role("button", name="Approve Zelda Quill").click()
    page.get_by_role("dialog", name="Approve Zelda Quill?").get_by_role("button", name="Approve", exact=True).click()
    expect(verified).to_contain_text("Zelda Quill")
    expect(page.get_by_test_id("count-Verified")).to_contain_text("151")
    expect(page.get_by_test_id("count-Pending")).to_contain_text("119")
    expect(page.get_by_test_id("summary-pending-count")).to_have_text("119")

    # The pagers hold at 320 px wide: no sideways scrolling, 44 px targets.
    search.fill("")
    page.set_viewport_size({"width": 320, "height": 720})
    expect(pager.get_by_role("button", name="Next page of Verified Providers")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    box = pager.get_by_role("button", name="Next page of Verified Providers").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44


def test_admin_searches_filters_and_pages_bookings_and_requests(live_server, page: Page, admin_user, verified_provider):
    for _ in range(21):
        BookingFactory(provider=verified_provider)
    special = BookingFactory(
        provider=verified_provider,
        service_request__client__first_name="Hilda",
        service_request__client__last_name="Moss",
        status=BookingStatus.CANCELLED,
    )
    ServiceRequestFactory(description="Please help me sort the photos in the loft.")
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")

    page.get_by_role("tab", name="Bookings").click()
    expect(page.get_by_test_id("count-Total Bookings")).to_contain_text("22")
    expect(page.get_by_test_id("bookings-found")).to_have_text("22 bookings found")
    expect(page.get_by_test_id("admin-booking")).to_have_count(20)
    page.get_by_role("button", name="Next page of All Bookings").click()
    expect(page.get_by_test_id("bookings-pager-page")).to_have_text("Page 2 of 2")
    expect(page.get_by_test_id("admin-booking")).to_have_count(2)
    assert_no_axe_violations(page, context="/admin bookings, page 2")

    page.get_by_label("Search bookings").fill("hilda moss")
    expect(page.get_by_test_id("bookings-found")).to_have_text("1 booking found")
    expect(page.get_by_test_id("admin-booking")).to_contain_text(f"#{special.id}")
    page.get_by_label("Search bookings").fill("")
    page.get_by_label("Status").select_option("cancelled")
    expect(page.get_by_test_id("admin-booking")).to_have_count(1)
    page.get_by_label("Status").select_option("completed")
    expect(page.get_by_role("heading", name="No bookings found")).to_be_visible()

    page.get_by_role("tab", name="Service Requests").click()
    expect(page.get_by_test_id("count-Total Requests")).to_contain_text("23")
    page.get_by_label("Search service requests").fill("photos in the loft")
    expect(page.get_by_test_id("admin-request")).to_have_count(1)
    expect(page.get_by_test_id("requests-found")).to_have_text("1 request found")


def test_reassign_offers_a_search_when_there_are_many_verified_providers(live_server, page: Page, admin_user):
    current, *_ = bulk_providers(60, prefix="Helper")
    booking = BookingFactory(provider=current, status=BookingStatus.CONFIRMED)
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Bookings").click()
    page.get_by_role("button", name=f"Reassign booking #{booking.id}").click()

    dialog = page.get_by_role("dialog", name="Reassign Booking")
    find = dialog.get_by_label("Find a verified provider")
    expect(dialog).to_contain_text("Showing the first 50 of 60. Type to narrow the list.")
    find.fill("helper 047")
    expect(dialog).to_contain_text("1 provider matches.")
    select = dialog.get_by_label("New provider")
    expect(select.locator("option", has_text="Helper 047")).to_have_count(1)
    select.select_option(label="Helper 047 - Technology Support")
    dialog.get_by_role("button", name="Reassign Booking").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Booking reassigned successfully")
    booking.refresh_from_db()
    assert booking.provider.user.last_name == "047"
