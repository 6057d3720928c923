from decimal import Decimal

import factory

from bookings.models import Booking, Review
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory


class BookingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Booking

    service_request = factory.SubFactory(ServiceRequestFactory, status=RequestStatus.BOOKED)
    provider = factory.SubFactory(VerifiedProviderFactory)
    client = factory.SelfAttribute("service_request.client")
    recipient = factory.SelfAttribute("service_request.recipient")
    scheduled_date = factory.SelfAttribute("service_request.preferred_date")
    scheduled_time = factory.SelfAttribute("service_request.preferred_time")
    duration = factory.SelfAttribute("service_request.estimated_duration")
    total_amount = Decimal("30.00")


class ReviewFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Review

    booking = factory.SubFactory(BookingFactory)
    reviewer = factory.SelfAttribute("booking.client")
    reviewed = factory.SelfAttribute("booking.provider.user")
    rating = 5
    comment = "Kind and patient."
