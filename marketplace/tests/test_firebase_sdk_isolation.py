"""Each page ships only its own island; only /login loads the Firebase SDK,
and it loads it after its first paint (a dynamic import of the login island, not a script tag).

Two views of the same rule: the built Vite manifest (what each island pulls in, transitively) and
the script tags each page actually renders, read back from the built files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from bookings.tests.factories import BookingFactory
from requests_app.tests.factories import ServiceRequestFactory

DIST = Path(settings.BASE_DIR) / "static" / "dist"
MANIFEST = DIST / "manifest.json"
# Strings only the Firebase Auth SDK bundles: its error class and its REST endpoint.
FIREBASE_MARKERS = ("FirebaseError", "identitytoolkit.googleapis.com")
ASSET = re.compile(r'(?:src|href)="/static/dist/([^"]+\.js)"')


def _manifest() -> dict:
    assert MANIFEST.exists(), "Build the frontend first: npx vite build"
    return json.loads(MANIFEST.read_text())


def _has_firebase(relative: str) -> bool:
    text = (DIST / relative).read_text(encoding="utf-8", errors="replace")
    return any(marker in text for marker in FIREBASE_MARKERS)


def _chunk_files(manifest: dict, key: str, seen: set[str] | None = None) -> set[str]:
    """The entry's file and every chunk it imports, statically or dynamically, transitively."""
    seen = set() if seen is None else seen
    if key in seen:
        return set()
    seen.add(key)
    entry = manifest[key]
    files = {entry["file"]}
    for child in [*entry.get("imports", []), *entry.get("dynamicImports", [])]:
        files |= _chunk_files(manifest, child, seen)
    return files


def test_only_the_login_island_bundles_the_firebase_sdk():
    manifest = _manifest()
    entries = {key for key, entry in manifest.items() if entry.get("isEntry")}
    assert "frontend/islands/login.tsx" in entries
    with_firebase = {key for key in entries if any(_has_firebase(f) for f in _chunk_files(manifest, key))}
    # The markers really find the SDK (else this test could never fail).
    assert with_firebase == {"frontend/islands/login.tsx"}


def _page_scripts(html: str) -> set[str]:
    return set(ASSET.findall(html))


def _island_of(manifest: dict, file: str) -> str | None:
    for key, entry in manifest.items():
        if entry.get("isEntry") and entry["file"] == file:
            return key
    return None


@pytest.mark.django_db
def test_every_page_loads_its_own_island_and_no_firebase_except_login(
    client, client_user, verified_provider, admin_user
):
    manifest = _manifest()
    request = ServiceRequestFactory(client=client_user)
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)

    signed_out = {
        "/": "landing.tsx",
        "/landing": "landing.tsx",
        "/login": "login.tsx",
        "/privacy-policy": None,
        "/privacy-policy.html": None,
        "/terms-of-service.html": None,
        "/no-such-page": None,
    }
    as_client = {
        "/": "dashboard.tsx",
        "/dashboard": "dashboard.tsx",
        "/request-service": "request-service.tsx",
        "/provider-signup": "provider-signup.tsx",
        "/providers": "providers.tsx",
        "/messages": "messages.tsx",
        f"/service-request-details?id={request.id}": "service-request-details.tsx",
        f"/edit-service-request?id={request.id}": "edit-service-request.tsx",
        f"/checkout/{booking.id}": "checkout.tsx",
    }
    as_admin = {"/admin": "admin.tsx"}

    checked = []
    for user, pages in ((None, signed_out), (client_user, as_client), (admin_user, as_admin)):
        client.logout()
        if user is not None:
            client.force_login(user)
        for path, island in pages.items():
            response = client.get(path)
            assert response.status_code in (200, 404), (path, response.status_code)
            scripts = _page_scripts(response.content.decode())
            islands = {_island_of(manifest, s) for s in scripts} - {None}
            expected = {"frontend/islands/toaster.tsx", "frontend/islands/user-menu.tsx"}
            if island:
                expected.add(f"frontend/islands/{island}")
            # The toaster (every page) and the user menu (signed in) are shared; nothing else.
            assert islands <= expected and (island is None or f"frontend/islands/{island}" in islands), (path, islands)
            # No page's script tags load Firebase: /login imports it after its first paint.
            firebase = [s for s in scripts if _has_firebase(s)]
            assert firebase == [], (path, firebase)
            if path == "/login":
                later = [manifest[key]["file"] for key in manifest["frontend/islands/login.tsx"]["dynamicImports"]]
                assert any(_has_firebase(f) for f in later), "the login island should import the Firebase SDK"
            checked.append(path)
    assert len(checked) == len(signed_out) + len(as_client) + len(as_admin)
