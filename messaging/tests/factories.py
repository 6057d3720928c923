import factory

from accounts.tests.factories import UserFactory
from messaging.models import Message, MessageType


class MessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Message

    sender = factory.SubFactory(UserFactory)
    receiver = factory.SubFactory(UserFactory)
    content = factory.Faker("sentence")


class SystemMessageFactory(MessageFactory):
    sender = None
    message_type = MessageType.SYSTEM
