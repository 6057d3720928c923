"""Root fixtures shared by every app's tests (STYLE.md: client_user, provider_user, ...)."""

import pytest

from accounts.models import UserType
from accounts.tests.factories import AdminUserFactory, UserFactory
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.categories import ensure_default_categories

# The Firebase Auth emulator fixtures (firebase_emulator, firebase_auth) and helpers.
pytest_plugins = ["marketplace.testing.firebase"]


@pytest.fixture(autouse=True)
def _default_categories(request):
    """A transactional test flushes every table when it ends, the six migrated categories too;
    every test that uses the database finds them in place (re-created when missing)."""
    marker = request.node.get_closest_marker("django_db")
    if marker and marker.kwargs.get("transaction"):
        request.getfixturevalue("transactional_db")
    elif marker or "db" in request.fixturenames:
        request.getfixturevalue("db")
    else:
        return
    from requests_app.models import ServiceCategory

    if ServiceCategory.objects.count() < 6:
        ensure_default_categories()


@pytest.fixture
def client_user(db):
    return UserFactory(user_type=UserType.CLIENT, first_name="Clara", email="clara@example.com")


@pytest.fixture
def provider_user(db):
    """A provider whose application is still pending."""
    return ProviderFactory(user__first_name="Paul", user__email="paul@example.com").user


@pytest.fixture
def verified_provider(db):
    """A verified Provider profile (use .user for the account)."""
    return VerifiedProviderFactory(user__first_name="Vera", user__email="vera@example.com")


@pytest.fixture
def admin_user(db):
    return AdminUserFactory(first_name="Ada", email="ada@example.com")


# Browser tests: Playwright drives Debian's Chromium (never `playwright install`).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium", "args": CHROMIUM_ARGS}
