import itertools
from decimal import Decimal

import factory

from accounts.models import User, UserType
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


_batches = itertools.count(1)


def bulk_providers(count: int, *, status: str = VerificationStatus.VERIFIED, prefix: str = "Helper", **fields):
    """`count` providers (and their users) in two INSERTs, for the paging tests: named
    "<prefix> 001".."<prefix> NNN" (first name, last name), emails <prefix>NNN.<batch>@example.com.
    Factories would take a query or more each."""
    batch = next(_batches)
    users = User.objects.bulk_create(
        User(
            id=f"bulk-{batch}-{i:04d}",
            email=f"{prefix.lower()}{i:03d}.{batch}@example.com",
            first_name=prefix,
            last_name=f"{i:03d}",
            user_type=UserType.PROVIDER,
        )
        for i in range(1, count + 1)
    )
    defaults = {
        "specialties": ["tech-support"],
        "hourly_rate": Decimal("30.00"),
        "service_area": "Springfield",
        "bio": ProviderFactory.bio,
        "experience": ProviderFactory.experience,
        **fields,
    }
    return Provider.objects.bulk_create(
        Provider(user=user, phone=f"555-030-{i:04d}", verification_status=status, **defaults)
        for i, user in enumerate(users, start=1)
    )
