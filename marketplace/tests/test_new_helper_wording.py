"""a helper with no reviews is a "New helper" on the landing page, not "0.0"."""

from decimal import Decimal

import pytest

from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db


def _featured(html: str) -> list[str]:
    """Each featured provider's card, up to its list of services (the rating comes before it)."""
    return [part.split('class="chips"')[0] for part in html.split('data-testid="featured-provider"')[1:]]


def test_a_featured_provider_without_reviews_is_a_new_helper(client):
    VerifiedProviderFactory(user__first_name="Nadia", rating=Decimal("0"), total_reviews=0)
    (block,) = _featured(client.get("/landing").content.decode())
    assert "New helper" in block
    assert "(0 reviews)" in block
    assert "0.0" not in block
    assert "★" not in block


def test_a_reviewed_provider_keeps_the_rating(client):
    VerifiedProviderFactory(user__first_name="Rita", rating=Decimal("4.80"), total_reviews=1)
    (block,) = _featured(client.get("/landing").content.decode())
    assert "4.8" in block
    assert "(1 review)" in block
    assert "New helper" not in block
