from decimal import Decimal

import factory

from accounts.models import UserType
from accounts.tests.factories import UserFactory
from providers.models import Provider, VerificationStatus


class ProviderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Provider

    user = factory.SubFactory(UserFactory, user_type=UserType.PROVIDER)
    phone = factory.Sequence(lambda n: f"555-020-{n:04d}")
    specialties = factory.LazyFunction(lambda: ["tech-support", "light-errands"])
    hourly_rate = Decimal("30.00")
    service_area = "Springfield"
    bio = "I have helped older neighbours with technology and errands for many years, patiently and kindly."
    experience = "Ten years volunteering at the senior centre."
    verification_status = VerificationStatus.PENDING


class VerifiedProviderFactory(ProviderFactory):
    verification_status = VerificationStatus.VERIFIED
