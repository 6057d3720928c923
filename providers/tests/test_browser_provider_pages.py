"""/provider-signup and /providers in Chromium: apply and see the already-a-provider state;
browse with search, service filter, sorts and Clear Filters."""

from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.browser import sign_in_browser
from providers.models import Provider, VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BIO = "I spent thirty years as a librarian and love helping people learn new technology at their own pace."


def test_client_applies_and_then_sees_already_a_provider(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/provider-signup")

    # Validation happens as the user types, with the spec's messages.
    page.get_by_label("Phone number").fill("555-01")
    expect(page.get_by_test_id("provider-phone-error")).to_have_text("Phone number must be at least 10 digits")
    page.get_by_label("About you").fill("Too short")
    expect(page.get_by_test_id("provider-bio-error")).to_have_text(
        "Please provide a detailed bio (at least 50 characters)"
    )
    page.get_by_label("Technology Support").check()
    page.get_by_label("Technology Support").uncheck()
    expect(page.get_by_test_id("provider-specialties-error")).to_have_text("Please select at least one specialty")

    page.get_by_label("Phone number").fill("555-010-2000")
    expect(page.get_by_test_id("provider-phone-error")).to_have_text("")
    page.get_by_label("Technology Support").check()
    page.get_by_label("Communication Support").check()
    page.get_by_label("Hourly rate in dollars").fill("35")
    page.get_by_label("Service area").fill("Springfield and Shelbyville")
    page.get_by_label("About you").fill(BIO)
    page.get_by_label("Experience").fill("Volunteer tech tutor at the senior centre.")
    page.get_by_role("button", name="Submit Application").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Provider Profile Created!")
    page.wait_for_url(f"{live_server.url}/", timeout=6000)
    provider = Provider.objects.get(user=client_user)
    assert provider.verification_status == VerificationStatus.PENDING
    assert provider.specialties == ["tech-support", "communication-support"]
    assert provider.hourly_rate == Decimal("35.00")

    page.goto(f"{live_server.url}/provider-signup")
    expect(page.get_by_role("heading", name="You're Already a Provider!")).to_be_visible()
    expect(page.get_by_test_id("verification-status")).to_have_text("Pending")
    expect(page.get_by_text("you'll be notified once your profile is verified")).to_be_visible()
    expect(page.get_by_role("link", name="Go to Dashboard")).to_have_attribute("href", "/")


def test_submitting_without_a_service_shows_the_toast_and_the_field_error(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/provider-signup")
    page.get_by_role("button", name="Submit Application").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Please select at least one service")
    expect(page.get_by_test_id("provider-specialties-error")).to_have_text("Please select at least one specialty")
    expect(page.get_by_test_id("provider-hourlyRate-error")).to_have_text("Please enter your hourly rate")
    expect(page.get_by_test_id("provider-serviceArea-error")).to_have_text("Please enter your service area")
    expect(page.get_by_test_id("provider-experience-error")).to_have_text("Please describe your experience")
    assert not Provider.objects.exists()


def _browse_fixture():
    VerifiedProviderFactory(
        user__first_name="Ann",
        user__last_name="Tech",
        specialties=["tech-support", "communication-support", "appointment-support", "light-errands"],
        hourly_rate=Decimal("40"),
        rating=Decimal("4.90"),
        total_reviews=3,
        service_area="Downtown",
        bio="Patient help with phones and tablets for older adults, step by step.",
    )
    VerifiedProviderFactory(
        user__first_name="Bob",
        user__last_name="Garden",
        specialties=["home-organization"],
        hourly_rate=Decimal("20"),
        rating=Decimal("4.50"),
        total_reviews=12,
        service_area="Northside",
        bio="I love decluttering and making homes safe; also keen on gardening.",
    )
    VerifiedProviderFactory(
        user__first_name="Cara",
        user__last_name="Care",
        specialties=["wellness-checks", "light-errands"],
        hourly_rate=Decimal("30"),
        rating=Decimal("4.70"),
        total_reviews=7,
        service_area="Riverside",
        bio="Former nurse offering friendly wellness visits and errands around town.",
    )
    ProviderFactory(user__first_name="Pending", service_area="Downtown")  # never listed


def names(page: Page) -> list[str]:
    return page.get_by_test_id("provider-card").locator("h3").all_inner_texts()


def test_browse_search_filter_sort_and_clear(live_server, page: Page, client_user):
    _browse_fixture()
    sign_in_browser(page, live_server.url, client_user)

    held = []
    page.route("**/api/providers?*", lambda route: held.append(route))
    page.goto(f"{live_server.url}/providers")
    # While the first answer is held back: six skeleton cards.
    expect(page.get_by_test_id("skeleton-card")).to_have_count(6)
    for route in held:
        route.continue_()
    page.unroute("**/api/providers?*")

    count = page.get_by_test_id("results-count")
    expect(count).to_have_text("3 providers found")
    expect(page.get_by_test_id("provider-card")).to_have_count(3)
    assert names(page) == ["Ann Tech", "Cara Care", "Bob Garden"]  # highest rated first

    ann = page.get_by_test_id("provider-card").filter(has_text="Ann Tech")
    expect(ann).to_contain_text("Verified")
    expect(ann).to_contain_text("$40.00/hour")
    expect(ann).to_contain_text("(3 reviews)")
    expect(ann).to_contain_text("+1 more")
    expect(ann.get_by_role("img", name="Rated 4.9 out of 5")).to_be_visible()
    expect(ann.get_by_role("link", name="Contact Ann Tech")).to_have_attribute("href", "/login")

    page.get_by_label("Sort by").select_option(label="Most Reviews")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Bob Garden")
    assert names(page) == ["Bob Garden", "Cara Care", "Ann Tech"]
    page.get_by_label("Sort by").select_option(label="Price: Low to High")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Bob Garden")
    assert names(page) == ["Bob Garden", "Cara Care", "Ann Tech"]
    page.get_by_label("Sort by").select_option(label="Price: High to Low")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Ann Tech")
    assert names(page) == ["Ann Tech", "Cara Care", "Bob Garden"]

    # Search is case-insensitive over the bio, the service area and the specialties.
    page.get_by_label("Search providers").fill("GARDENING")
    expect(count).to_have_text("1 provider found")
    assert names(page) == ["Bob Garden"]
    expect(page.get_by_role("list", name="Active filters")).to_contain_text("Search: “GARDENING”")
    page.get_by_label("Search providers").fill("riverside")
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Cara Care"])
    expect(count).to_have_text("1 provider found")

    page.get_by_label("Search providers").fill("")
    page.get_by_label("Service", exact=True).select_option(label="Light Errands")
    expect(count).to_have_text("2 providers found")
    expect(page.get_by_role("list", name="Active filters")).to_contain_text("Service: Light Errands")

    page.get_by_label("Search providers").fill("zebra")
    expect(page.get_by_role("heading", name="No Providers Found")).to_be_visible()
    expect(count).to_have_text("0 providers found")

    page.get_by_role("button", name="Clear Filters").first.click()
    expect(count).to_have_text("3 providers found")
    expect(page.get_by_label("Search providers")).to_have_value("")
    expect(page.get_by_label("Service", exact=True)).to_have_value("")
    expect(page.get_by_label("Sort by")).to_have_value("rating")
    expect(page.get_by_role("list", name="Active filters")).to_have_count(0)

    footer = page.get_by_role("region", name="Can't find what you need?")
    expect(footer.get_by_role("link", name="Become a Provider")).to_have_attribute("href", "/provider-signup")
    expect(footer.get_by_role("link", name="Contact Support")).to_be_visible()


def test_signed_out_visitor_on_browse_is_sent_to_login_with_the_toast(live_server, page: Page):
    page.goto(f"{live_server.url}/providers")
    expect(page).to_have_url(f"{live_server.url}/login?next=%2Fproviders")
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Unauthorized")
    expect(toast).to_contain_text("You are logged out. Logging in again...")
