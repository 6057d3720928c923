"""Root fixtures shared by every app's tests (STYLE.md: client_user, provider_user, ...)."""

from pathlib import Path

import pytest
from django.db.models.signals import post_migrate

from accounts.models import UserType
from accounts.tests.factories import AdminUserFactory, UserFactory
from core import listcache
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.categories import ensure_default_categories

# The Firebase Auth emulator (firebase_emulator, firebase_auth) and the fake Stripe API
# (fake_stripe, stripe_backend) fixtures, and the ones below, for every app's tests.
pytest_plugins = [
    "marketplace.testing.firebase",
    "marketplace.testing.stripe",
    # A real SMTP server (smtp_server), a real Celery worker (celery_worker), a fake Twilio API (fake_twilio).
    "marketplace.testing.mail",
    "marketplace.testing.celery",
    "marketplace.testing.twilio",
    # A fake Checkr API (fake_checkr) and the live vetting gateways pointed at the fakes (vetting_live).
    "marketplace.testing.checkr",
    # A fake geocoding service (fake_nominatim, geopy_backend) and places_in_process.
    "marketplace.testing.geocoder",
    # Daphne for browser tests with websockets (DaphneServer) and fresh_channel_layer.
    "marketplace.testing.live",
    # Staff who passed the second step (with_verified_second_factor), and authenticator codes.
    "marketplace.testing.second_factor",
]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The six categories come with the migrations; a reused database (--reuse-db) may have lost
    them to the previous run's last flush, so they are put back once per session."""
    with django_db_blocker.unblock():
        ensure_default_categories()


def _put_the_categories_back(sender, **kwargs) -> None:
    """A transactional test empties every table when it ends (Django's flush), the six categories
    too, and then sends post_migrate, as a migrate would: they are put back at once, so every later
    test finds them, whatever the order a worker runs its tests in."""
    if sender.label == "requests_app":
        ensure_default_categories()


post_migrate.connect(_put_the_categories_back, weak=False, dispatch_uid="kindly-tests-categories-after-flush")


@pytest.fixture(autouse=True)
def _fresh_list_cache():
    """A rolled-back test leaves values in the list cache (Redis) read from rows that are gone:
    each test starts on a version of its own."""
    listcache.forget()


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
    """A staff member whose sessions (force_login, sign_in_browser) have passed the second step."""
    from marketplace.testing.second_factor import with_verified_second_factor

    return with_verified_second_factor(AdminUserFactory(first_name="Ada", email="ada@example.com"))


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
    return {**browser_type_launch_args, "executable_path": _chromium(browser_type_launch_args), "args": CHROMIUM_ARGS}


# Debian's old headless shell (package chromium-headless-shell, what Playwright itself runs headless):
# the same engine without the full browser's UI, about a third less CPU and a sixth less time per
# browser test on this machine than the full Chromium; `make chromium` installs both. A headed run
# (pytest --headed) needs the full one.
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")


def _chromium(launch_args: dict) -> str:
    if launch_args.get("headless", True) and HEADLESS_SHELL.exists():
        return str(HEADLESS_SHELL)
    return "/usr/bin/chromium"


@pytest.fixture
def page(page):
    """Playwright's page, failing the test on an error the page's own script threw and did not
    catch (an island that never mounts shows only its "Loading…" text: this names the reason)."""
    thrown: list[str] = []
    page.on("pageerror", lambda error: thrown.append(f"{page.url}: {error}"))
    yield page
    assert not thrown, "The page threw: " + "; ".join(thrown)
