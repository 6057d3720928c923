"""/provider-signup and /providers in Chromium: apply and see the already-a-provider state;
browse with search, service filter, sorts and Clear Filters, page through every provider, and
Contact one (the request form, their service chosen)."""

from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.models import Provider, VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory, bulk_providers
from requests_app.models import ServiceRequest

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
    page.get_by_label("Home ZIP code").fill("SW1A 1AA")
    expect(page.get_by_test_id("provider-homeZip-error")).to_contain_text("United States only")
    page.get_by_label("Home ZIP code").fill("62704")
    page.get_by_label("How far will you travel?").select_option("25")
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
    assert (provider.home_zip, provider.travel_miles) == ("62704", 25)

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
    # Highest rated first.
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Ann Tech", "Cara Care", "Bob Garden"])

    ann = page.get_by_test_id("provider-card").filter(has_text="Ann Tech")
    expect(ann).to_contain_text("Verified")
    expect(ann).to_contain_text("$40.00/hour")
    expect(ann).to_contain_text("(3 reviews)")
    expect(ann).to_contain_text("+1 more")
    expect(ann.get_by_role("img", name="Rated 4.9 out of 5")).to_be_visible()
    ann_id = Provider.objects.get(user__first_name="Ann").pk
    expect(ann.get_by_role("link", name="Request this helper: Ann Tech")).to_have_attribute(
        "href", f"/request-service?provider={ann_id}"
    )

    page.get_by_label("Sort by").select_option(label="Most Reviews")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Bob Garden")
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Bob Garden", "Cara Care", "Ann Tech"])
    page.get_by_label("Sort by").select_option(label="Price: Low to High")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Bob Garden")
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Bob Garden", "Cara Care", "Ann Tech"])
    page.get_by_label("Sort by").select_option(label="Price: High to Low")
    expect(page.get_by_test_id("provider-card").first).to_contain_text("Ann Tech")
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Ann Tech", "Cara Care", "Bob Garden"])

    # Search is case-insensitive over the bio, the service area and the specialties.
    page.get_by_label("Search providers").fill("GARDENING")
    expect(count).to_have_text("1 provider found")
    expect(page.get_by_test_id("provider-card").locator("h3")).to_have_text(["Bob Garden"])
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


def test_browse_pages_through_250_verified_providers_with_the_true_total(live_server, page: Page, client_user):
    bulk_providers(250, prefix="Helper")
    bulk_providers(5, status=VerificationStatus.PENDING, prefix="Pending")  # never listed
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/providers")

    count = page.get_by_test_id("results-count")
    expect(count).to_have_text("250 providers found")  # the true total, not the first page's
    cards = page.get_by_test_id("provider-card")
    expect(cards).to_have_count(24)
    more = page.get_by_role("button", name="Load more providers")
    expect(page.get_by_test_id("load-more")).to_contain_text("Showing 24 of 250 providers.")

    more.click()
    expect(cards).to_have_count(48)
    expect(page.get_by_test_id("load-more")).to_contain_text("Showing 48 of 250 providers.")
    # Focus moves to the first of the new providers, so the keyboard carries on from there.
    expect(cards.nth(24).locator("h3")).to_be_focused()
    assert_no_axe_violations(page, context="/providers with Load more")
    page.set_viewport_size({"width": 320, "height": 720})
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    box = more.bounding_box()
    assert box and box["height"] >= 44
    page.set_viewport_size({"width": 1280, "height": 720})

    for shown in range(72, 250, 24):
        more.click()
        expect(cards).to_have_count(shown)
    more.click()
    expect(cards).to_have_count(250)
    expect(page.get_by_test_id("load-more")).to_have_count(0)  # all shown: no button
    shown_names = names(page)
    assert len(set(shown_names)) == 250
    assert not any(name.startswith("Pending") for name in shown_names)
    expect(count).to_have_text("250 providers found")

    # A search pages too, with its own total.
    page.get_by_label("Search providers").fill("technology")
    expect(count).to_have_text("250 providers found")
    expect(cards).to_have_count(24)
    page.get_by_label("Search providers").fill("zebra")
    expect(count).to_have_text("0 providers found")


def test_contact_opens_the_request_form_for_that_providers_service(live_server, page: Page, client_user):
    vera = VerifiedProviderFactory(
        user__first_name="Vera", user__last_name="Lang", specialties=["wellness-checks", "tech-support"]
    )
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/providers")
    page.get_by_role("link", name="Request this helper: Vera Lang").click()

    expect(page).to_have_url(f"{live_server.url}/request-service?provider={vera.pk}")
    note = page.get_by_test_id("asked-provider")
    expect(note).to_have_text("You're asking Vera directly. Vera offers: Technology Support, Wellness Checks.")
    expect(page.get_by_test_id("direct-choice")).to_contain_text(
        "Vera will have 24 hours to accept. After that, other helpers can offer too."
    )
    # Not always her first service: the family picks among hers, and the choice is named.
    category = page.get_by_label("Service category")
    expect(category).to_have_value("")
    expect(category.locator("option:not([value=''])")).to_have_text(["Technology Support", "Wellness Checks"])
    category.select_option(label="Wellness Checks")
    expect(page.get_by_test_id("asked-service")).to_have_text("You're asking Vera for Wellness Checks.")
    assert_no_axe_violations(page, context="/request-service from Contact")

    # The request is sent to Vera directly: only she may accept it for 24 hours.
    page.get_by_label("Title").fill("Weekly check-in call")
    page.get_by_label("Description").fill("A friendly visit on Tuesday mornings to see how I am doing.")
    page.get_by_label("Preferred date").fill(page.get_by_label("Preferred date").get_attribute("min"))
    page.get_by_label("Street address").fill("3 Oak Lane")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Request sent to Vera!")
    created = ServiceRequest.objects.get(title="Weekly check-in call")
    assert created.category.slug == "wellness-checks"
    assert created.client == client_user
    assert created.requested_provider == vera and not created.only_requested_provider


def test_contact_without_a_session_goes_to_login_and_back_to_the_form(live_server, page: Page, client_user):
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Lang")
    pending = ProviderFactory(user__first_name="Penny")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/providers")
    page.context.clear_cookies()  # signed out on another tab
    page.get_by_role("link", name="Request this helper: Vera Lang").click()
    expect(page).to_have_url(f"{live_server.url}/login?next=%2Frequest-service%3Fprovider%3D{vera.pk}")

    # A provider who is not verified is never named: the plain form.
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service?provider={pending.pk}")
    expect(page.get_by_label("Service category")).to_have_value("")
    expect(page.get_by_test_id("asked-provider")).to_have_count(0)
