"""A helper's completion beside her answer speed (providers.ports.track_records): of her last 25
visits over (completed, or handed on because she left), those she completed; "New helper" (null)
under 5. On her card (GET /api/providers) and her profile (GET /api/providers/{id}/profile)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from bookings.models import BookingStatus, Replacement, ReplacementCause, ReplacementState
from bookings.selectors import track_records_of
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from providers.ports import TrackRecord
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import Offer, OfferAnswer
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]  # a window and a union: both databases


def _visits(helper, *, completed: int, left: int = 0, family_cancelled: int = 0, days_ago: int = 1) -> None:
    """Her visits over, `days_ago` and the days before: completed ones, ones she left (a Replacement
    names her; the visit went to someone else), and ones the family cancelled."""
    day = timezone.localdate() - dt.timedelta(days=days_ago)
    for i in range(completed):
        BookingFactory(provider=helper, status=BookingStatus.COMPLETED, scheduled_date=day - dt.timedelta(days=i))
    for i in range(left):
        other = VerifiedProviderFactory()
        booking = BookingFactory(
            provider=other, status=BookingStatus.COMPLETED, scheduled_date=day - dt.timedelta(days=i)
        )
        Replacement.objects.create(
            booking=booking,
            left_provider=helper,
            cause=ReplacementCause.HELPER_CANCELLED,
            state=ReplacementState.FOUND,
            started_at=booking.starts_at - dt.timedelta(days=1),
            deadline=booking.starts_at,
            found_provider=other,
        )
    for i in range(family_cancelled):
        BookingFactory(provider=helper, status=BookingStatus.CANCELLED, scheduled_date=day - dt.timedelta(days=i))


def test_her_last_visits_over_count_the_ones_she_left_and_not_the_familys_cancellations():
    ana, new, capped = VerifiedProviderFactory(), VerifiedProviderFactory(), VerifiedProviderFactory()
    _visits(ana, completed=6, left=2, family_cancelled=3)
    _visits(new, completed=4)  # too few to judge: "New helper"
    # 30 completed long ago, then 5 left lately: her last 25 hold the 5 she left.
    _visits(capped, completed=30, days_ago=40)
    _visits(capped, completed=0, left=5)
    BookingFactory(provider=ana, status=BookingStatus.CONFIRMED)  # ahead: not over, not counted
    now = timezone.now()
    Offer.objects.create(
        service_request=ServiceRequestFactory(),
        provider=new,
        offered_at=now - dt.timedelta(minutes=20),
        answered_at=now,
        answer=OfferAnswer.DECLINED,
    )

    records = track_records_of([ana.pk, new.pk, capped.pk, VerifiedProviderFactory().pk])

    assert records[ana.pk] == TrackRecord(answer_minutes=None, completed=6, visits=8)
    assert records[new.pk] == TrackRecord(answer_minutes=pytest.approx(20), completed=0, visits=0)
    assert records[capped.pk] == TrackRecord(answer_minutes=None, completed=20, visits=25)
    assert len(records) == 3  # nothing to say of a helper with no answer and no visits


def test_her_card_and_her_profile_say_it_beside_her_answer_speed(client, client_user):
    ana, nina = VerifiedProviderFactory(user__first_name="Ana"), VerifiedProviderFactory(user__first_name="Nina")
    _visits(ana, completed=9, left=1)
    client.force_login(client_user)

    cards = {row["id"]: row for row in call(client, "GET", "/api/providers?verified=true").json()}
    assert cards[ana.pk]["completion"] == {"completed": 9, "visits": 10}
    assert cards[nina.pk]["completion"] is None and cards[nina.pk]["answerMinutes"] is None  # "New helper"

    profile = call(client, "GET", f"/api/providers/{ana.pk}/profile").json()
    assert profile["completion"] == {"completed": 9, "visits": 10} and profile["answerMinutes"] is None
    assert call(client, "GET", f"/api/providers/{nina.pk}/profile").json()["completion"] is None
