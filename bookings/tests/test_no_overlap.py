"""A provider holds one visit at a time: the services refuse an overlapping
accept or reassign with a 409, and on PostgreSQL the exclusion constraint refuses what a race
slips past the check."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone

from bookings.models import Booking, BookingStatus
from bookings.services import PROVIDER_BUSY, booking_reassign, service_request_accept
from bookings.tests.factories import BookingFactory
from core.errors import Conflict
from marketplace.testing.api import call
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

# The service check runs on SQLite too (make run); the race test needs PostgreSQL's constraint.
sqlite_too = pytest.mark.sqlite

DAY = timezone.localdate() + dt.timedelta(days=9)


def _open_request(window="morning", duration=60, day=DAY):
    return ServiceRequestFactory(preferred_date=day, preferred_time=window, estimated_duration=duration)


@sqlite_too
@pytest.mark.django_db
def test_an_accept_that_overlaps_a_visit_is_refused_and_changes_nothing(client, verified_provider):
    BookingFactory(provider=verified_provider, scheduled_date=DAY, scheduled_time="morning", duration=60)
    clash = _open_request("morning")
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{clash.pk}/accept")
    assert response.status_code == 409
    assert response.json()["message"] == PROVIDER_BUSY == "You already have a visit at that time."
    clash.refresh_from_db()
    assert clash.status == RequestStatus.OPEN and not clash.bookings.exists()


@sqlite_too
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (("morning", 60), ("afternoon", 60), 201),  # 8:00-9:00, then 12:00
        (("morning", 240), ("afternoon", 60), 201),  # ends at 12:00 sharp: no overlap
        (("morning", 255), ("afternoon", 60), 409),  # runs to 12:15
        (("afternoon", 60), ("morning", 300), 409),  # the later accept reaches back over it
    ],
)
def test_visits_overlap_by_their_start_and_duration(client, verified_provider, first, second, expected):
    BookingFactory(provider=verified_provider, scheduled_date=DAY, scheduled_time=first[0], duration=first[1])
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{_open_request(*second).pk}/accept")
    assert response.status_code == expected, response.content


@sqlite_too
@pytest.mark.django_db
def test_a_cancelled_or_completed_visit_frees_the_time(client, verified_provider):
    for status in (BookingStatus.CANCELLED, BookingStatus.COMPLETED):
        BookingFactory(provider=verified_provider, scheduled_date=DAY, scheduled_time="morning", status=status)
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{_open_request().pk}/accept").status_code == 201


@sqlite_too
@pytest.mark.django_db
def test_another_providers_visit_at_the_same_time_is_no_clash(client, verified_provider):
    BookingFactory(scheduled_date=DAY, scheduled_time="morning")
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{_open_request().pk}/accept").status_code == 201


@sqlite_too
@pytest.mark.django_db
def test_an_admin_cannot_reassign_a_visit_to_a_provider_busy_then(admin_user, verified_provider):
    busy = VerifiedProviderFactory()
    BookingFactory(provider=busy, scheduled_date=DAY, scheduled_time="morning")
    booking = BookingFactory(
        provider=verified_provider, scheduled_date=DAY, scheduled_time="morning", status=BookingStatus.CONFIRMED
    )
    with pytest.raises(Conflict, match="This provider already has a visit at that time."):
        booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=busy.pk)
    booking.refresh_from_db()
    assert booking.provider_id == verified_provider.pk


@sqlite_too
@pytest.mark.django_db
def test_the_database_itself_refuses_an_overlapping_visit(verified_provider):
    if connection.vendor != "postgresql":
        pytest.skip("the exclusion constraint is PostgreSQL's; SQLite relies on the service check")
    BookingFactory(provider=verified_provider, scheduled_date=DAY, scheduled_time="morning")
    with pytest.raises(IntegrityError, match=Booking.NO_OVERLAP), transaction.atomic():
        BookingFactory(provider=verified_provider, scheduled_date=DAY, scheduled_time="morning", duration=30)


@pytest.mark.django_db(transaction=True)
def test_eight_concurrent_accepts_of_overlapping_requests_make_exactly_one_booking():
    provider = VerifiedProviderFactory()
    requests = [_open_request("morning", duration=60 + 15 * i) for i in range(8)]
    barrier = threading.Barrier(len(requests))
    outcomes: list[str] = []

    def accept(request_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            service_request_accept(service_request_id=request_id, actor=provider.user)
            outcomes.append("booked")
        except Conflict as exc:
            outcomes.append(str(exc))
        except Exception as exc:  # anything else shows in the assertion, not as a thread warning
            outcomes.append(f"{type(exc).__name__}: {exc}")
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=accept, args=(r.pk,)) for r in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    stuck = sum(thread.is_alive() for thread in threads)
    assert stuck == 0, f"{stuck} accepts still waiting after 30 s; outcomes so far: {outcomes}"
    assert sorted(outcomes) == [PROVIDER_BUSY] * 7 + ["booked"]
    assert Booking.objects.filter(provider=provider).count() == 1
    assert ServiceRequestFactory._meta.model.objects.filter(status=RequestStatus.OPEN).count() == 7


def _race(*calls) -> list[str]:
    """Run the calls at once (a barrier), each on its own connection; what each did, in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = [""] * len(calls)

    def run(index: int, call_it) -> None:
        try:
            barrier.wait(timeout=10)
            call_it()
            outcomes[index] = "done"
        except Conflict as exc:
            outcomes[index] = str(exc)
        except Exception as exc:  # anything else shows in the assertion, not as a thread warning
            outcomes[index] = f"{type(exc).__name__}: {exc}"
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), f"still waiting after 30 s: {outcomes}"
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_an_accept_and_time_off_that_day_at_once_never_both_land(monkeypatch):
    """Each checks the other's table, so without one lock both pass their check and she is booked
    on her day off. The worst order, every time: the accept looks at her calendar, then the time
    off is asked for (and, unless the accept holds her schedule, taken) before the accept writes."""
    import threading as th

    from bookings.services import accept
    from providers.models import TimeOff
    from providers.services import time_off_add

    provider = VerifiedProviderFactory()
    request = _open_request("morning")
    looked, time_off_ended = th.Event(), th.Event()
    check = accept.provider_visit_problems

    def check_then_let_time_off_go(*args, **kwargs):
        problems = check(*args, **kwargs)
        looked.set()
        time_off_ended.wait(timeout=1)  # held while she holds her schedule: the accept goes on after 1 s
        return problems

    def add_time_off():
        assert looked.wait(timeout=10)
        try:
            time_off_add(provider=provider, actor=provider.user, first_day=DAY, last_day=DAY)
        finally:
            time_off_ended.set()

    monkeypatch.setattr(accept, "provider_visit_problems", check_then_let_time_off_go)
    outcomes = _race(lambda: service_request_accept(service_request_id=request.pk, actor=provider.user), add_time_off)

    booked = Booking.objects.filter(provider=provider, scheduled_date=DAY).exists()
    off = TimeOff.objects.filter(provider=provider, first_day=DAY).exists()
    assert (booked, off) == (True, False), outcomes
    assert outcomes[0] == "done" and outcomes[1].startswith("You have a visit with"), outcomes
