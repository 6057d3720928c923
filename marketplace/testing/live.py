"""Run Daphne as a subprocess against the current (test) database: the scale-out test, the
browser tests that need websockets and bench/message_latency.py use it. pytest-django's
live_server is WSGI only. Also the fixtures daphne_servers (one Daphne per settings for the whole
run of a test process) and fresh_channel_layer (a pytest plugin: conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The URL of the database this process uses now (the test database inside a test)."""
    db = settings.DATABASES["default"]
    auth = quote(db.get("USER") or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{db['NAME']}"


class DaphneServer:
    """One Daphne process on a free port. `app` is an ASGI path; the default serves static
    files too (marketplace.testing.live_asgi), as a browser needs."""

    def __init__(self, *, app: str = "marketplace.testing.live_asgi:application", env: dict[str, str] | None = None):
        self.port = free_port()
        self.app = app
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "marketplace.settings.test"),
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            **(env or {}),
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.proc: subprocess.Popen | None = None
        self._log = tempfile.TemporaryFile()
        self._log_from = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def spawn(self) -> DaphneServer:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.app]
        self.proc = subprocess.Popen(cmd, cwd=BASE_DIR, env=self.env, stdout=self._log, stderr=subprocess.STDOUT)  # noqa: S603
        return self

    def wait_ready(self, timeout: float = 30) -> DaphneServer:
        assert self.proc is not None, "spawn() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Daphne exited with {self.proc.returncode}:\n{self.output()}")
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1)  # noqa: S310
                return self
            except urllib.error.HTTPError:
                return self  # it answers HTTP: up
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Daphne did not start within {timeout} s:\n{self.output()}")

    def start(self, timeout: float = 30) -> DaphneServer:
        return self.spawn().wait_ready(timeout)

    def output(self) -> str:
        """What the server printed since it started, or since the last mark_output()."""
        self._log.seek(self._log_from)
        return self._log.read().decode(errors="replace")[-5000:]

    def mark_output(self) -> None:
        """output() starts here: a server that several tests share shows each its own lines."""
        self._log.seek(0, os.SEEK_END)
        self._log_from = self._log.tell()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)

    def __enter__(self) -> DaphneServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


@pytest.fixture(scope="session")
def daphne_servers():
    """daphne_servers(env=None) -> a running DaphneServer with those extra environment variables,
    started at the first test that asks and shared by every later one of this test process (a
    Daphne takes seconds of CPU to start; each test's transactional database is emptied between
    tests, and the server keeps no state of its own: sessions, cache and channel layer are in the
    database and Redis). Another `env`, or another Firebase Auth emulator address (a server reads
    it from its environment when it starts), gets a server of its own. All stop when the run ends."""
    servers: dict[tuple, DaphneServer] = {}

    def get(env: dict[str, str] | None = None) -> DaphneServer:
        key = (tuple(sorted((env or {}).items())), os.environ.get("FIREBASE_AUTH_EMULATOR_HOST", ""))
        server = servers.get(key)
        if server is None or server.proc is None or server.proc.poll() is not None:
            server = servers[key] = DaphneServer(env=env).start()
        server.mark_output()
        return server

    yield get
    for server in servers.values():
        server.stop()


@pytest.fixture
def fresh_channel_layer():
    """A new channel layer instance, emptied first: test users get the same uids in every run, and
    sockets of earlier runs (killed servers) stay in their groups until group_expiry (a day). A new
    instance, because a receive an earlier test left unfinished (its event loop closed) keeps the
    old one's receive lock held and bound to that loop ("bound to a different event loop");
    channel_layers.set is Channels' way to swap the layer in tests."""
    import asyncio
    import threading

    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    channel_layers.set(DEFAULT_CHANNEL_LAYER, layer)
    if hasattr(layer, "flush"):
        # In a thread of its own: Playwright's sync API keeps an event loop in this one.
        worker = threading.Thread(target=lambda: asyncio.run(layer.flush()))
        worker.start()
        worker.join(timeout=10)
    return layer
