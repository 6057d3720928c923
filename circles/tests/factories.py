import factory

from accounts.tests.factories import UserFactory
from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole


class CareRecipientFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CareRecipient

    first_name = "Walter"
    last_name = "Stone"
    street = "12 Elm Street"
    town = "Springfield"
    phone = "555-201-3344"
    notes_for_helpers = "Hard of hearing, ring twice."


class CircleMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CircleMember

    recipient = factory.SubFactory(CareRecipientFactory)
    user = factory.SubFactory(UserFactory)
    role = CircleRole.MEMBER


class CircleInvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CircleInvitation

    recipient = factory.SubFactory(CareRecipientFactory)
    email = factory.Sequence(lambda n: f"invitee{n}@example.com")
    role = CircleRole.MEMBER
