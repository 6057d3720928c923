"""/admin's Phone tab, its call and text records (GET /api/admin/phone-records): every call and text
through the bookings' Kindly lines, newest first, paged; when, which way, how long, which booking;
never a phone number; staff only; a fixed number of queries whatever the rows."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from core import listcache
from phoneline.models import ContactKind, Direction, PhoneContact, PhoneLink
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db

URL = "/api/admin/phone-records"
HELPER_PHONE = "+15550204321"
FAMILY_PHONE = "+15557778888"
POOL = "+15005550100"


def records(n: int, *, client_user, title="Tablet help", hours_later=0):
    """`n` calls and texts through one booking's line, a minute apart, the newest last."""
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title=title,
        provider=VerifiedProviderFactory(),
        status=BookingStatus.CONFIRMED,
    )
    link = PhoneLink.objects.create(
        booking=booking,
        number=POOL,
        provider=booking.provider,
        helper_phone=HELPER_PHONE,
        family_user=client_user,
        family_phone=FAMILY_PHONE,
        family_name="Olivia",
        ends_at=timezone.now() + dt.timedelta(days=2),
    )
    made = []
    for i in range(n):
        contact = PhoneContact.objects.create(
            link=link,
            booking=booking,
            kind=ContactKind.CALL if i % 2 == 0 else ContactKind.TEXT,
            direction=Direction.HELPER_TO_FAMILY if i % 3 else Direction.FAMILY_TO_HELPER,
            sid=f"CA{booking.pk}x{i}",
            seconds=125 if i % 2 == 0 else None,
            outcome="completed" if i % 2 == 0 else "",
        )
        at = timezone.now() + dt.timedelta(hours=hours_later) - dt.timedelta(minutes=n - i)
        PhoneContact.objects.filter(pk=contact.pk).update(at=at)
        made.append(contact)
    return booking, made


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_staff_read_every_line_s_records_newest_first_without_any_number(admin_user, client_user):
    booking, made = records(3, client_user=client_user)

    response = signed_in(admin_user).get(URL)

    assert response.status_code == 200, response.content
    assert response["X-Total-Count"] == "3"
    rows = response.json()
    assert [r["id"] for r in rows] == [c.pk for c in reversed(made)]
    assert rows[-1] == {
        "id": made[0].pk,
        "kind": "call",
        "direction": "family_to_helper",
        "at": rows[-1]["at"],
        "seconds": 125,
        "outcome": "completed",
        "bookingId": booking.pk,
        "bookingTitle": "Tablet help",
    }
    body = json.dumps(rows)
    for number in (HELPER_PHONE, FAMILY_PHONE, POOL, "5550204321", "5557778888"):
        assert number not in body


def test_the_records_are_paged_in_a_fixed_number_of_queries(admin_user, client_user):
    records(2, client_user=client_user, title="First")
    staff = signed_in(admin_user)
    counts = []
    for more in (0, 5):
        if more:
            records(more, client_user=client_user, title="Second", hours_later=1)
        listcache.forget()
        with CaptureQueriesContext(connection) as queries:
            page = staff.get(f"{URL}?limit=2&offset=0")
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert page["X-Total-Count"] == "7"
    assert [r["bookingTitle"] for r in page.json()] == ["Second", "Second"]
    second = staff.get(f"{URL}?limit=2&offset=6").json()
    assert [r["bookingTitle"] for r in second] == ["First"]


def test_families_and_helpers_cannot_read_the_records(client_user, verified_provider):
    records(1, client_user=client_user)
    for user in (client_user, verified_provider.user):
        response = signed_in(user).get(URL)
        assert response.status_code == 403
        assert set(response.json()) == {"message", "errors"}
