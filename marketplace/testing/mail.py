"""A real SMTP server (aiosmtpd) on 127.0.0.1 that Django's SMTP backend sends to, for every app's tests.

``smtp_server`` points EMAIL_* at it (the settings are process-wide, so a Celery worker thread
started by ``celery_worker`` sends there too). ``stop()``/``start()`` take it down and bring it
back on the same port; ``wait_for(n)`` waits for n messages in the inbox.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import logging
import socket
import threading
import time
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """The aiosmtpd handler: keeps every message it accepts, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.arrived_at: list[float] = []
        self.lock = threading.Condition()
        # Seconds the server takes before it accepts a message (a slow mail server).
        self.delay = 0.0
        # Called (in a thread of its own, so it may use the database) before a message is accepted,
        # e.g. to look at the database from another connection while the sender waits.
        self.on_data = None

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.on_data is not None:
            await asyncio.to_thread(self.on_data)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)
            self.arrived_at.append(time.monotonic())
            self.lock.notify_all()
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self, port: int) -> None:
        self.host, self.port = "127.0.0.1", port
        self.inbox = Inbox()
        self.controller: Controller | None = None

    @property
    def messages(self) -> list[EmailMessage]:
        return list(self.inbox.messages)

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname=self.host, port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]

    def wait_for(self, count: int, timeout: float = 15.0) -> list[EmailMessage]:
        """Wait until the inbox holds at least `count` messages; fail the test after `timeout` s."""
        deadline = time.monotonic() + timeout
        with self.inbox.lock:
            while len(self.inbox.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"expected {count} email(s), got {len(self.inbox.messages)} in {timeout} s")
                self.inbox.lock.wait(left)
        return self.messages


def header(message: EmailMessage, name: str) -> str:
    """A header as one line (long ones arrive folded)."""
    return "".join(str(message[name]).split())


def body_text(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def body_html(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


@pytest.fixture
def smtp_server(settings):
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP line at INFO
    server = SmtpServer(free_port())
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = server.host
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    yield server
    server.stop()
