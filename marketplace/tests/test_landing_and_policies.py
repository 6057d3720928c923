"""Landing page (spec section 2 "Landing page") and the static policy pages."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from marketplace.testing.pages import island_props
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import ServiceCategory

pytestmark = pytest.mark.django_db


def _featured_blocks(html: str) -> list[str]:
    return html.split('data-testid="featured-provider"')[1:]


def test_visitor_landing_has_sections_and_every_action_goes_to_login(client):
    html = client.get("/").content.decode()
    for section in ('id="services"', 'id="providers"', 'id="how-it-works"'):
        assert section in html
    for text in ("Request Service Now", "Become a Provider", "Let's Get Started", "How It Works"):
        assert text in html
    assert 'href="/request-service"' not in html
    assert 'href="/provider-signup"' not in html
    assert 'href="/privacy-policy.html"' in html and 'href="/terms-of-service.html"' in html


def test_visitor_landing_buttons_open_sign_up_and_keep_the_form_asked_for(client):
    html = client.get("/").content.decode()
    to_request = 'href="/login?mode=signup&amp;next=%2Frequest-service"'
    to_provider = 'href="/login?mode=signup&amp;next=%2Fprovider-signup"'
    assert f"{to_request}>Request Service Now</a>" in html
    assert f"{to_request}>Let's Get Started</a>" in html
    assert html.count(f"{to_provider}>Become a Provider</a>") == 2


def test_signed_in_landing_buttons_go_to_request_service_and_provider_signup(client, client_user):
    client.force_login(client_user)
    html = client.get("/landing").content.decode()
    assert 'href="/request-service">Request Service Now</a>' in html
    assert 'href="/provider-signup">Become a Provider</a>' in html
    assert 'href="/request-service">Let\'s Get Started</a>' in html


def test_landing_shows_sample_providers_when_none_is_verified(client):
    ProviderFactory(user__first_name="Pending", user__last_name="Person")  # pending: never featured
    html = client.get("/landing").content.decode()
    blocks = _featured_blocks(html)
    assert len(blocks) == 3
    assert "Pending Person" not in html
    for rate in ("$25", "$30", "$35"):
        assert rate in html
    assert "4.9" in html and "4.8" in html


def test_landing_features_at_most_three_verified_active_providers_best_rated_first(client):
    VerifiedProviderFactory(user__first_name="Low", user__last_name="Rated", rating=Decimal("3.00"))
    VerifiedProviderFactory(user__first_name="Top", user__last_name="Rated", rating=Decimal("5.00"))
    VerifiedProviderFactory(user__first_name="Mid", user__last_name="Rated", rating=Decimal("4.50"))
    VerifiedProviderFactory(user__first_name="Fourth", user__last_name="Best", rating=Decimal("2.00"))
    VerifiedProviderFactory(user__first_name="Inactive", user__last_name="One", rating=Decimal("5.00"), is_active=False)
    ProviderFactory(
        user__first_name="Rejected",
        user__last_name="One",
        rating=Decimal("5.00"),
        verification_status=VerificationStatus.REJECTED,
    )
    html = client.get("/landing").content.decode()
    blocks = _featured_blocks(html)
    assert len(blocks) == 3
    assert "Top Rated" in blocks[0] and "Mid Rated" in blocks[1] and "Low Rated" in blocks[2]
    for absent in ("Fourth Best", "Inactive One", "Rejected One", "Sarah Johnson"):
        assert absent not in html


def test_featured_provider_shows_three_specialties_and_the_rest_as_more(client):
    VerifiedProviderFactory(
        user__first_name="Many",
        specialties=["tech-support", "wellness-checks", "light-errands", "home-organization", "appointment-support"],
    )
    block = _featured_blocks(client.get("/landing").content.decode())[0]
    assert block.count('class="chip"') == 4
    assert "Technology Support" in block and "Light Errands" in block
    assert "Home Organization" not in block
    assert "+2 more" in block


@pytest.mark.parametrize("path", ["/privacy-policy", "/privacy-policy.html"])
def test_privacy_policy_is_public_and_dated_today(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    today = timezone.localdate()
    assert f'datetime="{today:%Y-%m-%d}"' in html
    for heading in (
        "Information We Collect",
        "How We Use Your Information",
        "Sharing Your Information",
        "Data Security",
        "Your Rights",
        "Cookies",
        "Data Retention",
        "Children's Privacy",
        "International Users",
        "Changes to This Policy",
        "Contact Us",
    ):
        assert heading in html, heading
    assert "within 30 days of account closure" in html
    assert "children under 13" in html


def test_privacy_policy_is_shown_to_signed_in_users_too(client, client_user):
    client.force_login(client_user)
    assert client.get("/privacy-policy").status_code == 200


def test_terms_of_service_is_public_and_dated_today(client):
    response = client.get("/terms-of-service.html")
    assert response.status_code == 200
    assert f'datetime="{timezone.localdate():%Y-%m-%d}"' in response.content.decode()


def test_policy_date_follows_the_clock(client, time_machine):
    time_machine.move_to(dt.datetime(2030, 5, 17, 15, 0, tzinfo=dt.UTC))
    assert 'datetime="2030-05-17"' in client.get("/privacy-policy").content.decode()


def test_landing_lists_the_six_builtin_services_when_no_category_is_active(client):
    ServiceCategory.objects.update(is_active=False)
    services = island_props(client.get("/landing"), "landing-props")["services"]
    assert [s["name"] for s in services] == [
        "Technology Support",
        "Wellness Checks",
        "Light Errands",
        "Appointment Support",
        "Home Organization",
        "Communication Support",
    ]
    assert len({s["id"] for s in services}) == 6


def test_landing_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for _ in range(5):
        VerifiedProviderFactory()
    # categories, featured providers with their users, featured reviews, (session)
    with django_assert_max_num_queries(4):
        assert client.get("/landing").status_code == 200
