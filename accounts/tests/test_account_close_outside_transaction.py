"""Closing an account calls Firebase outside any transaction: no call to an outside service holds
the account's (or its requests') row locks while that service answers.

Transactional test: each step commits as it does in production; Firebase is the real emulator.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from marketplace.account_lifecycle import services as lifecycle
from marketplace.testing.firebase import emulator_sign_in, emulator_user
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "close-pass-1"


def test_closing_disables_the_firebase_account_outside_any_transaction(firebase_auth, monkeypatch):
    emulator_user("ivy@example.com", PASSWORD, "Ivy Irving")
    browser = Client()
    emulator_sign_in(browser, "ivy@example.com", PASSWORD)
    ivy = User.objects.get(email="ivy@example.com")
    open_request = ServiceRequestFactory(client=ivy)
    calls: list[tuple[bool, bool]] = []
    real = lifecycle.firebase_user_set_disabled

    def watched(uid: str, *, disabled: bool):
        calls.append((disabled, connection.in_atomic_block))
        return real(uid, disabled=disabled)

    monkeypatch.setattr(lifecycle, "firebase_user_set_disabled", watched)

    response = browser.post("/api/account/close", {"confirm": "CLOSE"}, content_type="application/json")

    assert response.status_code == 200, response.content
    assert calls == [(True, False)]
    ivy.refresh_from_db()
    assert ivy.closed_at is not None and ivy.is_active is False
    assert ServiceRequest.objects.get(pk=open_request.pk).status == RequestStatus.CANCELLED
