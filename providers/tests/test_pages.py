"""/provider-signup and /providers: guards, the already-a-provider state and the islands' props."""

import pytest

from marketplace.testing.pages import island_props
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory

pytestmark = pytest.mark.django_db


def queued_toasts(response) -> list[dict]:
    return island_props(response, "toaster-props")


def test_signed_out_visitor_is_sent_to_login_from_provider_signup(client):
    response = client.get("/provider-signup")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fprovider-signup"


def test_user_without_a_profile_gets_the_application_form(client, client_user):
    client.force_login(client_user)
    response = client.get("/provider-signup")
    html = response.content.decode()
    assert response.status_code == 200
    assert "/static/dist/assets/provider-signup-" in html
    assert "You're Already a Provider!" not in html
    for text in ("18 years or older", "Pass a background check", "Reliable transportation", "Patience and empathy"):
        assert text in html
    props = island_props(response, "provider-signup-props")
    assert [s["id"] for s in props["specialties"]] == [
        "tech-support",
        "wellness-checks",
        "light-errands",
        "appointment-support",
        "home-organization",
        "communication-support",
    ]


def test_pending_provider_sees_already_a_provider_with_the_review_note(client, provider_user):
    client.force_login(provider_user)
    html = client.get("/provider-signup").content.decode()
    assert "You're Already a Provider!" in html
    assert 'data-testid="verification-status">Pending<' in html
    assert "you'll be notified once your profile is verified" in html
    assert 'href="/"' in html and "Go to Dashboard" in html
    # No application form: the island shows "Where you help" (her home ZIP, how far she travels).
    assert "Where you help" in html
    response = client.get("/provider-signup")
    provider = island_props(response, "provider-signup-props")["provider"]
    assert provider["id"] == provider_user.provider.pk
    assert {"homeZip", "travelMiles", "placeStatus"} <= set(provider)


@pytest.mark.parametrize(
    ("status", "label"), [(VerificationStatus.VERIFIED, "Verified"), (VerificationStatus.REJECTED, "Rejected")]
)
def test_reviewed_provider_sees_their_status_without_the_pending_note(client, status, label):
    provider = ProviderFactory(verification_status=status)
    client.force_login(provider.user)
    html = client.get("/provider-signup").content.decode()
    assert "You're Already a Provider!" in html
    assert f'data-testid="verification-status">{label}<' in html
    assert "notified" not in html


def test_signed_out_visitor_on_browse_gets_the_unauthorized_toast_and_login(client):
    response = client.get("/providers")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fproviders"
    landing = client.get("/")
    assert queued_toasts(landing) == [
        {"title": "Unauthorized", "description": "You are logged out. Logging in again...", "variant": "destructive"}
    ]


def test_signed_in_user_gets_the_browse_page_with_the_six_services(client, client_user):
    client.force_login(client_user)
    response = client.get("/providers")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Find Trusted Providers" in html
    assert "/static/dist/assets/providers-" in html
    assert 'href="/provider-signup"' in html and "Contact Support" in html
    services = island_props(response, "providers-props")["services"]
    assert services[0] == {"id": "tech-support", "name": "Technology Support"}
    assert len(services) == 6
