"""Browse by distance in Chromium on a phone (390 px): /providers starts near the family's care
recipient, nearest first, "3.2 miles away"; the distance filter; "Anyone, anywhere"; axe-clean.
A helper sets where she helps (home ZIP, how far she travels) on /provider-signup."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from circles.models import CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory
from core.geocoding import PlaceStatus
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.test_browse_by_distance import MOM, east_of, helper

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = "/tmp/kindly-browse-by-distance"


@pytest.fixture
def family(client_user):
    mom = CareRecipientFactory(
        first_name="Walter",
        last_name="Stone",
        zip_code="62704",
        latitude=MOM.latitude,
        longitude=MOM.longitude,
        place_status=PlaceStatus.LOCATED,
    )
    CircleMemberFactory(recipient=mom, user=client_user, role=CircleRole.ORGANIZER)
    unplaced = CareRecipientFactory(first_name="Rose", last_name="Stone", place_status=PlaceStatus.NOT_FOUND)
    CircleMemberFactory(recipient=unplaced, user=client_user, role=CircleRole.ORGANIZER)
    helper("Ann", east_of(MOM, 3.2), travel=5)
    helper("Bea", east_of(MOM, 12.0), travel=25)
    helper("Cat", east_of(MOM, 12.0), travel=10)  # near enough, but she does not travel that far
    helper("Dot", east_of(MOM, 45.0), travel=50)
    return {"client": client_user, "mom": mom}


def _names(page: Page) -> list[str]:
    return page.get_by_test_id("provider-card").locator(".provider-name").all_inner_texts()


def test_a_family_browses_helpers_near_mom_on_a_phone(live_server, page: Page, family):
    page.set_viewport_size(PHONE)
    sign_in_browser(page, live_server.url, family["client"])
    page.goto(f"{live_server.url}/providers")

    near = page.get_by_label("Near whom?")
    expect(near).to_have_value(str(family["mom"].pk))
    expect(page.get_by_label("Sort by")).to_have_value("distance")
    expect(page.get_by_test_id("results-count")).to_have_text("3 providers found")
    assert [n.split()[0] for n in _names(page)] == ["Ann", "Bea", "Dot"]
    expect(page.get_by_test_id("distance")).to_have_text(["3.2 miles away", "12 miles away", "45 miles away"])
    expect(page.get_by_role("list", name="Active filters")).to_contain_text("Near Walter")
    page.screenshot(path=f"{SHOTS}-near.png", full_page=True)
    assert_no_axe_violations(page, context="/providers near a recipient, 390 px")

    page.get_by_label("Distance").select_option("10")
    expect(page.get_by_test_id("results-count")).to_have_text("1 provider found")
    expect(page.get_by_test_id("distance")).to_have_text(["3.2 miles away"])
    expect(page.get_by_role("list", name="Active filters")).to_contain_text("Near Walter, within 10 miles")

    # Someone whose address could not be placed: the page says why and shows helpers anywhere.
    near.select_option(label="Rose Stone")
    expect(page.get_by_test_id("near-problem")).to_contain_text("We could not find Rose's address on the map.")
    expect(page.get_by_test_id("results-count")).to_have_text("4 providers found")
    expect(page.get_by_label("Distance")).to_have_count(0)
    expect(page.get_by_label("Sort by")).to_have_value("rating")
    assert_no_axe_violations(page, context="/providers near someone not placed, 390 px")

    near.select_option(label="Anyone, anywhere")
    expect(page.get_by_test_id("results-count")).to_have_text("4 providers found")
    expect(page.get_by_test_id("distance")).to_have_count(0)

    page.get_by_role("button", name="Clear Filters").first.click()
    expect(near).to_have_value(str(family["mom"].pk))
    expect(page.get_by_test_id("results-count")).to_have_text("3 providers found")


def test_a_helper_sets_where_she_helps(live_server, page: Page, verified_provider, places_in_process):
    verified_provider.home_zip = "62704"
    verified_provider.save()
    page.set_viewport_size(PHONE)
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/provider-signup")
    expect(page.get_by_role("heading", name="Where you help")).to_be_visible()
    zip_code = page.get_by_label("Home ZIP code")
    expect(zip_code).to_have_value("62704")
    zip_code.fill("00000")
    page.get_by_role("button", name="Save where you help").click()
    expect(page.get_by_test_id("provider-homeZip-error")).to_have_text(
        "We could not find the ZIP code 00000. Please check it."
    )
    zip_code.fill("62629")
    page.get_by_label("How far will you travel?").select_option("25")
    page.get_by_role("button", name="Save where you help").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Saved")
    page.screenshot(path=f"{SHOTS}-where-you-help.png", full_page=True)
    assert_no_axe_violations(page, context="/provider-signup, where you help, 390 px")
    verified_provider.refresh_from_db()
    assert (verified_provider.home_zip, verified_provider.travel_miles) == ("62629", 25)
    assert verified_provider.place_status == PlaceStatus.LOCATED  # Chatham, placed after the commit
    assert verified_provider.latitude == pytest.approx(39.67, abs=0.02)
