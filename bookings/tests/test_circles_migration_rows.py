"""The care circles migration loses no row: the schema is taken back to before
circles 0001 (requests_app 0003, bookings 0006, accounts 0003 unapplied), data like the demo's and
like the load benchmark's seed is written with the historical models, then every migration runs
forward. Requests, bookings, emergency contacts and users are counted before and after, and every
request, booking and contact ends up linked to a recipient whose circle has its client as organizer.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE_CIRCLES = [
    ("circles", None),
    ("accounts", "0002_user_closed_at"),
    ("requests_app", "0002_service_categories"),
    ("bookings", "0005_calendar_feed"),
    # Later columns of providers (places) are not there yet either: the rows are written as then.
    ("providers", "0003_weekly_hours_time_off_admin_names"),
]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    # The models as of these nodes (and what they depend on): a None target has no state of its own.
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _seed(apps, *, clients: int, providers: int, requests_per_client: int, contacts: bool) -> None:
    """Clients with requests (every third booked, alternate bookings paid), providers, and emergency
    contacts, in bulk (as bench/api_load.py's seed writes them)."""
    User = apps.get_model("accounts", "User")
    Provider = apps.get_model("providers", "Provider")
    ServiceCategory = apps.get_model("requests_app", "ServiceCategory")
    ServiceRequest = apps.get_model("requests_app", "ServiceRequest")
    Booking = apps.get_model("bookings", "Booking")
    EmergencyContact = apps.get_model("accounts", "EmergencyContact")
    prefix = f"m{clients}"
    category = ServiceCategory.objects.order_by("id").first()
    assert category is not None, "requests_app 0002 adds the categories"
    client_users = User.objects.bulk_create(
        [
            User(id=f"{prefix}-client-{i}", email=f"{prefix}-client-{i}@example.com", first_name=f"C{i}", last_name="X")
            for i in range(clients)
        ]
    )
    provider_users = User.objects.bulk_create(
        [
            User(
                id=f"{prefix}-prov-{i}",
                email=f"{prefix}-prov-{i}@example.com",
                first_name=f"P{i}",
                user_type="provider",
            )
            for i in range(providers)
        ]
    )
    # A user with nothing (no request, no booking, no contact): they get no recipient.
    User.objects.create(id=f"{prefix}-idle", email=f"{prefix}-idle@example.com", first_name="Idle")
    profiles = Provider.objects.bulk_create(
        [
            Provider(user=u, hourly_rate=Decimal("30.00"), verification_status="verified", specialties=["tech-support"])
            for u in provider_users
        ]
    )
    today = timezone.localdate()
    requests = ServiceRequest.objects.bulk_create(
        [
            ServiceRequest(
                client=c,
                category=category,
                title=f"Help {n}",
                description="Help with the tablet, please.",
                preferred_date=today + dt.timedelta(days=1 + n),
                preferred_time="morning",
                location=f"{n} Elm Street" if n % 5 else "",
                estimated_duration=60,
                status="booked" if n % 3 == 0 else "open",
            )
            for i, c in enumerate(client_users)
            for n in range(i * requests_per_client, (i + 1) * requests_per_client)
        ]
    )
    bookings = []
    for n, request in enumerate(r for r in requests if r.status == "booked"):
        start = timezone.make_aware(dt.datetime.combine(request.preferred_date, dt.time(8)))
        bookings.append(
            Booking(
                service_request=request,
                provider=profiles[n % len(profiles)],
                client_id=request.client_id,
                scheduled_date=request.preferred_date,
                scheduled_time="morning",
                duration=60,
                total_amount=Decimal("30.00"),
                status="confirmed" if n % 2 else "scheduled",
                payment_status="paid" if n % 2 else "pending",
                starts_at=start,
                ends_at=start + dt.timedelta(hours=1),
            )
        )
    Booking.objects.bulk_create(bookings)
    if contacts:
        # Contacts of a client with requests, and of a user with contacts only.
        only_contacts = User.objects.create(id=f"{prefix}-contacts", email=f"{prefix}-contacts@example.com")
        EmergencyContact.objects.bulk_create(
            [
                EmergencyContact(user=client_users[0], name="Ann", phone="555-0101", is_primary=True),
                EmergencyContact(user=client_users[0], name="Ben", phone="555-0102"),
                EmergencyContact(user=only_contacts, name="Cat", phone="555-0103", is_primary=True),
            ]
        )


def _counts(apps) -> dict[str, int]:
    return {
        name: apps.get_model(app, model).objects.count()
        for name, (app, model) in {
            "users": ("accounts", "User"),
            "requests": ("requests_app", "ServiceRequest"),
            "bookings": ("bookings", "Booking"),
            "contacts": ("accounts", "EmergencyContact"),
            "providers": ("providers", "Provider"),
        }.items()
    }


# Both shapes side by side in one database (their rows apart by their ids' prefix): one trip back
# and forth through the migrations, the test's whole cost, proves both.
SHAPES = {
    "demo-like": {"clients": 4, "providers": 2, "requests_per_client": 3, "contacts": True},
    "bench-like": {"clients": 150, "providers": 12, "requests_per_client": 4, "contacts": True},
}


@pytest.mark.django_db(transaction=True)
def test_the_circles_migration_keeps_every_row_and_links_it():
    old_apps = _migrate(BEFORE_CIRCLES)
    try:
        for shape in SHAPES.values():
            _seed(old_apps, **shape)
        before = _counts(old_apps)
        assert before["requests"] == sum(s["clients"] * s["requests_per_client"] for s in SHAPES.values())
        assert before["bookings"] > 0
        for shape in SHAPES.values():  # each shape's own rows are there
            ServiceRequest = old_apps.get_model("requests_app", "ServiceRequest")
            mine = ServiceRequest.objects.filter(client__id__startswith=f"m{shape['clients']}-")
            assert mine.count() == shape["clients"] * shape["requests_per_client"]

        new_apps = _migrate(_latest())
        after = _counts(new_apps)
        assert after == before

        ServiceRequest = new_apps.get_model("requests_app", "ServiceRequest")
        Booking = new_apps.get_model("bookings", "Booking")
        EmergencyContact = new_apps.get_model("accounts", "EmergencyContact")
        CareRecipient = new_apps.get_model("circles", "CareRecipient")
        CircleMember = new_apps.get_model("circles", "CircleMember")
        assert not ServiceRequest.objects.filter(recipient__isnull=True).exists()
        assert not Booking.objects.filter(recipient__isnull=True).exists()
        assert not EmergencyContact.objects.filter(recipient__isnull=True).exists()
        # Each one's recipient is its client themself, organizing their own circle.
        for model, owner in ((ServiceRequest, "client_id"), (Booking, "client_id"), (EmergencyContact, "user_id")):
            rows = model.objects.values_list(owner, "recipient__account_id")
            assert all(a == b for a, b in rows), model
        organizers = set(CircleMember.objects.filter(role="organizer").values_list("recipient_id", "user_id"))
        recipients = set(CareRecipient.objects.values_list("pk", "account_id"))
        assert recipients <= organizers
        # A booking's recipient is its request's.
        assert not Booking.objects.exclude(recipient_id=models_f("service_request__recipient_id")).exists()
        # One recipient per client (anyone with a request, booking or contact); nobody else got one.
        clients = set(ServiceRequest.objects.values_list("client_id", flat=True)) | set(
            EmergencyContact.objects.values_list("user_id", flat=True)
        )
        assert {account for _, account in recipients} == clients
        # The address is the newest request's location (blank locations skipped), both in parts since.
        parts = ("street", "unit", "town", "state", "zip_code")
        for pk, account in sorted(recipients):
            newest = (
                ServiceRequest.objects.filter(client_id=account)
                .exclude(street="", unit="", town="", state="", zip_code="")
                .order_by("-created_at", "-id")
                .values_list(*parts)
                .first()
            )
            assert CareRecipient.objects.filter(pk=pk).values_list(*parts).get() == (newest or ("",) * 5)
    finally:
        _migrate(_latest())


def models_f(name: str):
    from django.db.models import F

    return F(name)
