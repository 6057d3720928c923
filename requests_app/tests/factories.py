import datetime as dt

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from circles.services import recipient_for_self
from requests_app.models import ServiceCategory, ServiceRequest, TimeWindow


class ServiceCategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ServiceCategory
        django_get_or_create = ("slug",)

    slug = "tech-support"
    name = "Technology Support"


class ServiceRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ServiceRequest

    client = factory.SubFactory(UserFactory)
    recipient = factory.LazyAttribute(lambda o: recipient_for_self(user=o.client))
    category = factory.SubFactory(ServiceCategoryFactory)
    title = factory.Sequence(lambda n: f"Help setting up my tablet #{n}")
    description = "I would like help setting up video calls with my grandchildren."
    # A day of its own for each (a month to eleven months ahead, clear of the few days ahead that
    # tests set themselves): the bookings made from them
    # never overlap for one provider (bookings' constraint), unless a test sets the date.
    preferred_date = factory.Sequence(lambda n: timezone.localdate() + dt.timedelta(days=30 + n % 300))
    preferred_time = TimeWindow.MORNING
    # The address in parts (a location="..." one-liner is still read into them, by the model).
    street = "12 Elm Street"
    town = "Springfield"
    estimated_duration = 60
