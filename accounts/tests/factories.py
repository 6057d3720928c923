import factory

from accounts.models import EmergencyContact, User, UserType
from circles.services import recipient_for_self


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("id",)

    id = factory.Sequence(lambda n: f"uid-{n:06d}")
    email = factory.Sequence(lambda n: f"user{n}@example.com")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    user_type = UserType.CLIENT
    password = factory.django.Password(None)


class AdminUserFactory(UserFactory):
    user_type = UserType.ADMIN


class EmergencyContactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EmergencyContact

    user = factory.SubFactory(UserFactory)
    # The contacts a user adds for themself belong to their own care recipient.
    recipient = factory.LazyAttribute(lambda o: recipient_for_self(user=o.user))
    name = factory.Faker("name")
    relationship = "Daughter"
    phone = factory.Sequence(lambda n: f"555-010-{n:04d}")
    email = factory.Faker("email")
