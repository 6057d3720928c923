"""The data model keeps the spec's defaults and the rules that are fixed (constraints)."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from accounts.models import UserType
from accounts.tests.factories import EmergencyContactFactory, UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from messaging.models import MessageType
from messaging.tests.factories import MessageFactory, SystemMessageFactory
from providers.models import Provider, VerificationStatus
from providers.tests.factories import ProviderFactory
from requests_app.models import RequestStatus, ServiceCategory, Urgency
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

SPEC_SPECIALTY_IDS = {
    "tech-support",
    "wellness-checks",
    "light-errands",
    "appointment-support",
    "home-organization",
    "communication-support",
}


def test_the_six_service_categories_exist_after_migrate():
    categories = ServiceCategory.objects.all()
    assert {c.slug for c in categories} == SPEC_SPECIALTY_IDS
    assert {c.name for c in categories} == {
        "Technology Support",
        "Wellness Checks",
        "Light Errands",
        "Appointment Support",
        "Home Organization",
        "Communication Support",
    }
    for category in categories:
        assert category.description and category.icon and len(category.features) >= 3
        assert category.is_active


def test_new_user_is_a_client_keyed_by_firebase_uid():
    user = UserFactory(id="firebase-uid-abc", user_type=UserType.CLIENT)
    user.refresh_from_db()
    assert user.pk == "firebase-uid-abc"
    assert user.user_type == "client"
    assert not user.has_usable_password()
    assert not user.is_staff


def test_user_type_defaults_to_client_in_the_database():
    from accounts.models import User

    user = User.objects.create_user(id="uid-default", email="Default@Example.com")
    assert user.user_type == UserType.CLIENT
    assert user.email == "Default@example.com"


def test_admin_user_type_means_staff():
    admin = UserFactory(user_type=UserType.ADMIN)
    assert admin.is_staff and admin.has_perm("bookings.change_booking")
    client = UserFactory(user_type=UserType.CLIENT)
    assert not client.is_staff and not client.has_perm("bookings.change_booking")


def test_email_is_unique():
    UserFactory(email="same@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(email="same@example.com", id="another-uid")


def test_new_provider_takes_the_spec_defaults():
    provider = ProviderFactory()
    provider.refresh_from_db()
    assert provider.verification_status == VerificationStatus.PENDING
    assert provider.is_active is True
    assert provider.rating == Decimal("0.00")
    assert provider.total_reviews == 0


def test_a_second_provider_profile_for_one_user_fails():
    provider = ProviderFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Provider.objects.create(user=provider.user)
    assert Provider.objects.filter(user=provider.user).count() == 1


def test_negative_hourly_rate_fails():
    with pytest.raises(IntegrityError), transaction.atomic():
        ProviderFactory(hourly_rate=Decimal("-1.00"))


def test_new_request_is_open_with_normal_urgency():
    request = ServiceRequestFactory()
    request.refresh_from_db()
    assert request.status == RequestStatus.OPEN
    assert request.urgency == Urgency.NORMAL
    assert request.estimated_duration == 60


def test_negative_budget_fails():
    with pytest.raises(IntegrityError), transaction.atomic():
        ServiceRequestFactory(max_budget=Decimal("-5.00"))


def test_new_booking_is_scheduled_and_payment_pending():
    booking = BookingFactory()
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED
    assert booking.payment_status == PaymentStatus.PENDING


def test_negative_booking_amount_fails():
    with pytest.raises(IntegrityError), transaction.atomic():
        BookingFactory(total_amount=Decimal("-0.01"))


@pytest.mark.parametrize("rating", [0, 6])
def test_review_rating_outside_1_to_5_fails(rating):
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewFactory(rating=rating)


def test_review_defaults_public_and_one_per_booking_and_reviewer():
    review = ReviewFactory(rating=5)
    assert review.is_public is True
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewFactory(booking=review.booking, reviewer=review.reviewer, rating=4)


def test_message_defaults_and_system_sender():
    message = MessageFactory()
    message.refresh_from_db()
    assert message.message_type == MessageType.TEXT and message.is_read is False
    system = SystemMessageFactory()
    assert system.sender is None and system.sender_id_or_system == "system"


def test_only_one_primary_emergency_contact_per_user():
    contact = EmergencyContactFactory(is_primary=True)
    EmergencyContactFactory(user=contact.user, is_primary=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        EmergencyContactFactory(user=contact.user, is_primary=True)
