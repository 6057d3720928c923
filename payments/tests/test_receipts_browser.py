"""Receipts families can file, in Chromium at 390 px: the organizer downloads the month's statement
(PDF and CSV) from /care-circle and a visit's receipt from the dashboard, and they read right."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from payments.services import payment_intent_create, payment_test_confirm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pdf_text(path: str) -> str:
    data = Path(path).read_bytes()
    assert data.startswith(b"%PDF")
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def test_the_organizer_downloads_the_months_statement_and_a_receipt(
    live_server, page: Page, offline_backend, client_user, verified_provider
):
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=timezone.localdate(),
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )
    payment_intent_create(actor=client_user, booking_id=booking.pk)
    payment_test_confirm(actor=client_user, booking_id=booking.pk, card_number="4242 4242 4242 4242")
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
    month = f"{booking.scheduled_date:%Y-%m}"
    helper = verified_provider.user.full_name

    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/care-circle")
    statement = page.get_by_test_id("statement-export")
    expect(statement.get_by_role("heading", name="Receipts and statements")).to_be_visible()
    statement.get_by_label("Month").fill(month)
    assert_no_axe_violations(page, context="the care circle page with the statement")
    page.screenshot(path="/tmp/statement-care-circle-390.png", full_page=True)

    with page.expect_download() as download:
        statement.get_by_role("link", name="Download the statement (PDF)").click()
    assert download.value.suggested_filename == f"kindly-statement-{booking.recipient_id}-{month}.pdf"
    text = _pdf_text(download.value.path())
    assert f"Statement for {booking.scheduled_date:%B %Y}" in text
    assert helper in text and "$45.50" in text and "$6.82" in text

    with page.expect_download() as download:
        statement.get_by_role("link", name="Download the statement (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert [(r["Helper"], r["Paid"], r["Net paid"]) for r in rows] == [
        (helper, "45.50", "45.50"),
        ("", "45.50", "45.50"),
    ]

    # The visit's own receipt, from the dashboard.
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item").filter(has_text="Set up video calls")
    with page.expect_download() as download:
        item.get_by_test_id("receipt-download").click()
    receipt = _pdf_text(download.value.path())
    assert f"Receipt K-{booking.pk:06d}" in receipt and "Total paid $45.50" in receipt
