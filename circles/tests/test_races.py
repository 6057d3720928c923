"""Two organizers acting at once take turns on the recipient's row lock: a circle never ends
up without an organizer."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounts.tests.factories import UserFactory
from circles import services
from circles.models import CircleMember, CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory
from core.errors import Conflict

pytestmark = pytest.mark.django_db(transaction=True)


def _at_once(calls) -> list[object]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = []

    def run(call):
        try:
            barrier.wait()
            call()
            outcomes.append("ok")
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_organizers_stepping_down_at_once_leave_one_organizer():
    recipient = CareRecipientFactory()
    a, b = UserFactory(), UserFactory()
    ma = CircleMemberFactory(recipient=recipient, user=a, role=CircleRole.ORGANIZER)
    mb = CircleMemberFactory(recipient=recipient, user=b, role=CircleRole.ORGANIZER)

    outcomes = _at_once(
        [
            lambda: services.member_set_role(actor=a, recipient_id=recipient.pk, member_id=ma.pk, role="member"),
            lambda: services.member_set_role(actor=b, recipient_id=recipient.pk, member_id=mb.pk, role="member"),
        ]
    )
    assert sorted(type(o).__name__ if o != "ok" else "ok" for o in outcomes) == ["Conflict", "ok"]
    assert CircleMember.objects.filter(recipient=recipient, role=CircleRole.ORGANIZER).count() == 1


def test_two_organizers_leaving_at_once_leave_one_organizer():
    recipient = CareRecipientFactory()
    a, b = UserFactory(), UserFactory()
    ma = CircleMemberFactory(recipient=recipient, user=a, role=CircleRole.ORGANIZER)
    mb = CircleMemberFactory(recipient=recipient, user=b, role=CircleRole.ORGANIZER)

    outcomes = _at_once(
        [
            lambda: services.member_remove(actor=a, recipient_id=recipient.pk, member_id=ma.pk),
            lambda: services.member_remove(actor=b, recipient_id=recipient.pk, member_id=mb.pk),
        ]
    )
    assert [o for o in outcomes if o != "ok"] and all(isinstance(o, Conflict) for o in outcomes if o != "ok")
    assert CircleMember.objects.filter(recipient=recipient, role=CircleRole.ORGANIZER).count() == 1
