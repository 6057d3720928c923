"""/checkout/{bookingId}: guard, and what the island is given for each state."""

from __future__ import annotations

import json

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def page_props(response) -> dict:
    return island_props(response, "checkout-props")


def test_signed_out_visitor_is_sent_to_login(client, booking):
    response = client.get(f"/checkout/{booking.pk}")

    assert response.status_code == 302
    assert response["Location"] == f"/login?next=%2Fcheckout%2F{booking.pk}"


def test_client_gets_the_booking_summary_and_the_island(client, booking):
    client.force_login(booking.client)

    response = client.get(f"/checkout/{booking.pk}")

    assert response.status_code == 200
    assert 'id="checkout-root"' in response.content.decode()
    assert 'src="/static/dist/assets/checkout-' in response.content.decode()  # the island's Vite bundle
    props = page_props(response)
    assert props["backend"] == "test"
    assert props["publishableKey"] == ""
    assert props["booking"] == {
        "id": booking.pk,
        "title": "Set up video calls",
        "providerName": booking.provider.user.full_name,
        "scheduledDate": booking.scheduled_date.isoformat(),
        "scheduledTime": "morning",
        "scheduledTimeLabel": "Morning (8AM - 12PM)",
        "duration": 60,
        "totalAmount": "45.50",
        "status": "scheduled",
        "paymentStatus": "pending",
        "payable": True,
        "canPay": True,
        "recipient": {
            "id": booking.recipient_id,
            "firstName": booking.recipient.first_name,
            "lastName": booking.recipient.last_name,
            "timeZone": "America/New_York",
        },
        "seriesNote": "",  # a single visit: nothing about paying other visits
        "tip": None,  # no tip for this visit (payments.tips)
        "autoChargeNote": "",  # not charged to a saved card
    }


def test_stripe_backend_passes_the_publishable_key_only(client, booking, stripe_backend):
    client.force_login(booking.client)

    props = page_props(client.get(f"/checkout/{booking.pk}"))

    assert props["backend"] == "stripe"
    assert props["publishableKey"] == "pk_test_kindly_fake"
    assert "sk_test" not in json.dumps(props)


@pytest.mark.parametrize("who", ["stranger", "provider", "admin"])
def test_anyone_but_the_client_sees_booking_not_found(client, booking, admin_user, who):
    user = {"stranger": UserFactory(), "provider": booking.provider.user, "admin": admin_user}[who]
    client.force_login(user)

    response = client.get(f"/checkout/{booking.pk}")

    assert response.status_code == 404
    assert page_props(response)["booking"] is None


@pytest.mark.parametrize("booking_id", ["999999", "abc", "0", "99999999999999999999999"])
def test_unknown_or_malformed_ids_show_booking_not_found(client, client_user, booking_id):
    client.force_login(client_user)

    response = client.get(f"/checkout/{booking_id}")

    assert response.status_code == 404
    assert page_props(response)["booking"] is None


def test_a_paid_booking_is_shown_as_complete(client, booking):
    booking.status, booking.payment_status = BookingStatus.CONFIRMED, PaymentStatus.PAID
    booking.save()
    client.force_login(booking.client)

    props = page_props(client.get(f"/checkout/{booking.pk}"))

    assert props["booking"]["paymentStatus"] == "paid"
    assert props["booking"]["payable"] is False
