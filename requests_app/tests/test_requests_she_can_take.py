"""A helper is shown exactly the open requests she can accept: a service she offers, inside her
weekly hours, not on her time off, not over another of her visits (one predicate for the list and
the accept). A direct request, and an admin's reassignment, need a service the helper offers."""

from __future__ import annotations

import datetime as dt

import pytest

from bookings.models import Booking, BookingStatus
from bookings.services import booking_reassign
from bookings.tests.factories import BookingFactory
from core.errors import InvalidInput
from marketplace.testing.api import call, category_id, valid_request_body
from providers.models import TimeOff, WeeklyHours
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import Repeat
from requests_app.tests.factories import ServiceCategoryFactory, ServiceRequestFactory

pytestmark = pytest.mark.django_db

_today = dt.date.today()
MONDAY = _today + dt.timedelta(days=14 + (7 - _today.weekday()) % 7)
SUNDAY = MONDAY + dt.timedelta(days=6)


@pytest.fixture
def vera(db):
    """Works weekdays 8 AM to 5 PM, offers Technology Support only."""
    vera = VerifiedProviderFactory(user__first_name="Vera", specialties=["tech-support"])
    WeeklyHours.objects.bulk_create(
        WeeklyHours(provider=vera, weekday=day, start_time=dt.time(8), end_time=dt.time(17)) for day in range(5)
    )
    return vera


def _listed(client, provider) -> set[int]:
    client.force_login(provider.user)
    response = call(client, "GET", "/api/service-requests")
    assert response.status_code == 200
    return {row["id"] for row in response.json()}


def _accept(client, provider, request) -> int:
    client.force_login(provider.user)
    return call(client, "POST", f"/api/service-requests/{request.pk}/accept").status_code


def test_the_list_holds_exactly_what_she_can_accept(client, vera):
    fits = ServiceRequestFactory(preferred_date=MONDAY, preferred_time="morning")
    sunday = ServiceRequestFactory(preferred_date=SUNDAY, preferred_time="morning")
    evening = ServiceRequestFactory(preferred_date=MONDAY + dt.timedelta(days=1), preferred_time="evening")
    errands = ServiceCategoryFactory(slug="home-organization", name="Home Organization")
    other_service = ServiceRequestFactory(preferred_date=MONDAY + dt.timedelta(days=2), category=errands)
    on_time_off = ServiceRequestFactory(preferred_date=MONDAY + dt.timedelta(days=3), preferred_time="afternoon")
    TimeOff.objects.create(provider=vera, first_day=on_time_off.preferred_date, last_day=on_time_off.preferred_date)
    over_a_visit = ServiceRequestFactory(preferred_date=MONDAY + dt.timedelta(days=4), preferred_time="morning")
    BookingFactory(provider=vera, scheduled_date=over_a_visit.preferred_date, scheduled_time="morning")
    # A weekly series whose first date is time off: she can take it without that date.
    series = ServiceRequestFactory(
        preferred_date=on_time_off.preferred_date, preferred_time="morning", repeat=Repeat.WEEKLY, repeat_count=3
    )

    assert _listed(client, vera) == {fits.pk, series.pk}
    # Each one left out is one her accept refuses; each one listed she can accept.
    for refused in (sunday, evening, other_service, on_time_off, over_a_visit):
        assert _accept(client, vera, refused) == 409
    assert not Booking.objects.filter(provider=vera, service_request__in=[sunday, evening, on_time_off]).exists()
    assert _accept(client, vera, fits) == 201
    client.force_login(vera.user)
    accepted = call(client, "POST", f"/api/service-requests/{series.pk}/accept", {"skipUnavailable": True})
    assert accepted.status_code == 201


def test_a_helper_without_hours_is_offered_any_time_but_not_her_time_off(client):
    anyone = VerifiedProviderFactory(specialties=["tech-support"])
    sunday = ServiceRequestFactory(preferred_date=SUNDAY, preferred_time="evening")
    off = ServiceRequestFactory(preferred_date=MONDAY)
    TimeOff.objects.create(provider=anyone, first_day=MONDAY, last_day=MONDAY)
    assert _listed(client, anyone) == {sunday.pk}
    assert off.pk not in _listed(client, anyone)


def test_a_direct_request_needs_a_service_the_helper_offers(client, client_user, vera):
    client.force_login(client_user)
    body = valid_request_body(categoryId=category_id("home-organization"), requestedProviderId=vera.pk)
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 400, response.content
    message = "Vera does not offer Home Organization. Vera offers: Technology Support."
    assert response.json() == {"message": message, "errors": {"categoryId": [message]}}
    ok = valid_request_body(categoryId=category_id("tech-support"), requestedProviderId=vera.pk)
    assert call(client, "POST", "/api/service-requests", ok).status_code == 201


def test_a_reassignment_needs_a_service_and_a_day_the_new_helper_can_do(admin_user, vera):
    errands = ServiceCategoryFactory(slug="light-errands", name="Light Errands")
    request = ServiceRequestFactory(preferred_date=MONDAY, preferred_time="morning", category=errands)
    booking = BookingFactory(service_request=request, status=BookingStatus.CONFIRMED)
    with pytest.raises(InvalidInput, match="Vera does not offer Light Errands. Choose a provider who does."):
        booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=vera.pk)
    vera.specialties = ["tech-support", "light-errands"]
    vera.save()
    TimeOff.objects.create(provider=vera, first_day=MONDAY, last_day=MONDAY)
    with pytest.raises(Exception, match="This provider is on time off that day."):
        booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=vera.pk)
    TimeOff.objects.filter(provider=vera).delete()
    booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=vera.pk)
    booking.refresh_from_db()
    assert booking.provider_id == vera.pk


def test_a_request_sent_to_her_stays_in_her_list_so_she_can_answer_it(client, vera):
    sunday = ServiceRequestFactory(preferred_date=SUNDAY, preferred_time="morning", requested_provider=vera)
    assert _listed(client, vera) == {sunday.pk}
    assert _accept(client, vera, sunday) == 409  # she cannot make it: she declines, saying why
    client.force_login(vera.user)
    reason = {"reason": "I do not work on Sundays."}
    assert call(client, "POST", f"/api/service-requests/{sunday.pk}/decline", reason).status_code == 200


def test_the_django_admin_moves_a_booked_visit_only_as_a_reassignment_may(vera):
    from django.forms.models import model_to_dict

    from bookings.admin import BookingAdminForm

    errands = ServiceCategoryFactory(slug="light-errands", name="Light Errands")
    request = ServiceRequestFactory(preferred_date=MONDAY, preferred_time="morning", category=errands)
    booking = BookingFactory(service_request=request, status=BookingStatus.CONFIRMED)

    def change(**fields):
        booking.refresh_from_db()  # a form that ran set its values on the instance
        data = {k: v for k, v in model_to_dict(booking).items() if v is not None}
        form = BookingAdminForm(data={**data, **fields}, instance=booking)
        return form.is_valid(), form.non_field_errors()

    assert change(provider=vera.pk) == (False, ["This provider does not offer Light Errands."])
    vera.specialties = ["light-errands"]
    vera.save()
    assert change(provider=vera.pk, scheduled_date=SUNDAY) == (
        False,
        ["This visit is outside this provider's available hours."],
    )
    TimeOff.objects.create(provider=vera, first_day=MONDAY, last_day=MONDAY)
    assert change(provider=vera.pk) == (False, ["This provider is on time off that day."])
    assert change(total_amount="31.00")[0]  # a change that moves nothing is not checked
