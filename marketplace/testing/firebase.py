"""Pytest plugin: a real Firebase Auth emulator for the test run.

Registered from the root conftest (``pytest_plugins = ["marketplace.testing.firebase"]``).
Nothing starts unless a test asks for it.

Fixtures
    ``firebase_emulator`` (session): starts ``firebase emulators:start --only auth`` on free
        ports (auth, hub, logging) with a temporary firebase.json and project
        ``demo-kindly-test`` (settings.FIREBASE_PROJECT_ID), waits until it answers, points
        ``settings.FIREBASE_AUTH_EMULATOR_HOST`` and the ``FIREBASE_AUTH_EMULATOR_HOST``
        environment variable at it (firebase-admin and the /login page use them), and stops it
        at the end of the run. Returns an :class:`AuthEmulator`.
    ``firebase_auth`` (function): the same emulator with every account deleted before the test.
        Use this one in tests.

Helpers (module functions, they use the running emulator)
    ``emulator_user(email, password, display_name="") -> uid``: create an account
        (email/password) in the emulator.
    ``emulator_id_token(email, password) -> str``: sign in through the REST API
        (``accounts:signInWithPassword``) and return a fresh Firebase ID token.
    ``emulator_sign_in(client, email, password) -> dict``: POST that token to
        /api/auth/session with a Django test client (the client is then signed in); returns
        the JSON answer (the user's profile).

    ``serve_gapi_shim(context)``: for Playwright tests of the Google popup. The Firebase SDK and
        the emulator's helper iframe load Google's gapi loader from apis.google.com, which these
        machines cannot reach; this routes that URL to a small local stand-in (gapi_shim.js) so
        the popup flow runs against the real emulator.

Example::

    def test_profile(client, firebase_auth):
        uid = emulator_user("ann@example.com", "secret-1", "Ann Lee")
        token = emulator_id_token("ann@example.com", "secret-1")
        response = client.get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.json()["id"] == uid
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
FIREBASE_BIN = PROJECT_DIR / "node_modules" / ".bin" / "firebase"
# Generous: the machine may be busy with other test runs.
START_TIMEOUT = 180.0

_running: AuthEmulator | None = None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AuthEmulator:
    host: str  # "127.0.0.1:<port>"
    project_id: str

    @property
    def base_url(self) -> str:
        return f"http://{self.host}"

    def clear_accounts(self) -> None:
        url = f"{self.base_url}/emulator/v1/projects/{self.project_id}/accounts"
        requests.delete(url, timeout=10).raise_for_status()

    def _rest(self, method: str, payload: dict) -> dict:
        url = f"{self.base_url}/identitytoolkit.googleapis.com/v1/accounts:{method}?key=any"
        response = requests.post(url, json=payload, timeout=10)
        body = response.json()
        if response.status_code != 200:
            raise RuntimeError(f"Auth emulator {method} failed: {body}")
        return body

    def create_user(self, email: str, password: str, display_name: str = "") -> str:
        body = self._rest("signUp", {"email": email, "password": password, "returnSecureToken": True})
        if display_name:
            self._rest("update", {"idToken": body["idToken"], "displayName": display_name, "returnSecureToken": True})
        return body["localId"]

    def id_token(self, email: str, password: str) -> str:
        body = self._rest("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})
        return body["idToken"]


def _require_running() -> AuthEmulator:
    if _running is None:
        raise RuntimeError("The Firebase Auth emulator is not running: use the firebase_auth fixture.")
    return _running


def emulator_user(email: str, password: str, display_name: str = "") -> str:
    """Create an email/password account in the running emulator; return its uid."""
    return _require_running().create_user(email, password, display_name)


def emulator_id_token(email: str, password: str) -> str:
    """Sign in to the running emulator; return a fresh ID token."""
    return _require_running().id_token(email, password)


def emulator_sign_in(client, email: str, password: str) -> dict:
    """Sign a Django test client in through POST /api/auth/session with a fresh emulator token."""
    token = emulator_id_token(email, password)
    response = client.post("/api/auth/session", {"idToken": token}, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


GAPI_SHIM = Path(__file__).with_name("gapi_shim.js")


def serve_gapi_shim(context) -> None:
    """Route https://apis.google.com/js/api.js in a Playwright BrowserContext to gapi_shim.js."""
    body = GAPI_SHIM.read_text()
    context.route(
        "https://apis.google.com/js/api.js*",
        lambda route: route.fulfill(status=200, content_type="application/javascript", body=body),
    )


def _wait_until_ready(process: subprocess.Popen, emulator: AuthEmulator, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"The Firebase Auth emulator exited early:\n{log_path.read_text()}")
        try:
            if requests.get(emulator.base_url + "/", timeout=1).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"The Firebase Auth emulator did not answer in {START_TIMEOUT:.0f} s:\n{log_path.read_text()}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    # The CLI runs the emulator as child processes: signal the whole process group.
    try:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)


# The name of the pytest-xdist group of every test that uses the emulator (see the hook below).
EMULATOR_GROUP = "firebase-auth-emulator"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that uses the emulator runs in the same xdist worker (the Makefile's pytest
    commands pass --dist loadgroup): the emulator takes 5-20 s of CPU to start, once per run this
    way instead of once per worker. The other tests are spread one by one as before."""
    for item in items:
        if "firebase_emulator" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(EMULATOR_GROUP))


@pytest.fixture(scope="session")
def firebase_emulator():
    """A Firebase Auth emulator of our own for the whole run (see the module docstring)."""
    global _running
    from django.conf import settings

    from accounts import firebase as kindly_firebase

    if not FIREBASE_BIN.exists():
        pytest.fail(f"{FIREBASE_BIN} is missing: run `npm ci` (firebase-tools is a dev dependency).")
    project_id = settings.FIREBASE_PROJECT_ID or "demo-kindly-test"
    workdir = Path(tempfile.mkdtemp(prefix="kindly-auth-emulator-"))
    auth_port, hub_port, logging_port = _free_port(), _free_port(), _free_port()
    config = {
        "emulators": {
            "auth": {"host": "127.0.0.1", "port": auth_port},
            "hub": {"host": "127.0.0.1", "port": hub_port},
            "logging": {"host": "127.0.0.1", "port": logging_port},
            "ui": {"enabled": False},
        }
    }
    (workdir / "firebase.json").write_text(json.dumps(config))
    log_path = workdir / "emulator.log"
    emulator = AuthEmulator(host=f"127.0.0.1:{auth_port}", project_id=project_id)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(  # noqa: S603 - fixed command, our own binary
            [
                str(FIREBASE_BIN),
                "emulators:start",
                "--only",
                "auth",
                "--project",
                project_id,
                "--config",
                str(workdir / "firebase.json"),
            ],
            cwd=workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            # The CLI keeps a per-project locator file in the temp dir; a private one lets
            # several runs (several engineers) use the same project id side by side.
            # A young generation of 64 MB instead of 16: the emulator compiles its API's validators
            # as it starts, which churns memory; about a quarter less CPU to start (7.1-7.5 -> 5.3-5.6 s).
            env={
                **os.environ,
                "TMPDIR": str(workdir),
                "NODE_OPTIONS": f"{os.environ.get('NODE_OPTIONS', '')} --max-semi-space-size=64".strip(),
            },
        )
    old_setting = settings.FIREBASE_AUTH_EMULATOR_HOST
    old_env = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    try:
        _wait_until_ready(process, emulator, log_path)
        settings.FIREBASE_AUTH_EMULATOR_HOST = emulator.host
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = emulator.host
        # firebase-admin fixes its endpoints when its app is made: start from a fresh one.
        kindly_firebase.reset_app()
        _running = emulator
        yield emulator
    finally:
        _running = None
        _stop(process)
        settings.FIREBASE_AUTH_EMULATOR_HOST = old_setting
        if old_env is None:
            os.environ.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
        else:
            os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = old_env
        kindly_firebase.reset_app()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def firebase_auth(firebase_emulator: AuthEmulator) -> AuthEmulator:
    """The running emulator, with no accounts left from earlier tests."""
    firebase_emulator.clear_accounts()
    return firebase_emulator
