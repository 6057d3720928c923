"""Service requests: validation (spec section 5), scoping, edit/delete while open, location privacy."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call, category_id, valid_request_body
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory


def test_client_creates_a_request_that_starts_open(client, client_user):
    client.force_login(client_user)
    response = call(client, "POST", "/api/service-requests", valid_request_body(maxBudget="45"))
    assert response.status_code == 201, response.content
    body = response.json()
    created = ServiceRequest.objects.get(pk=body["id"])
    assert created.client == client_user
    assert created.status == RequestStatus.OPEN
    assert str(created.max_budget) == "45.00"
    assert body["serviceCategory"]["name"] == "Technology Support"
    assert body["client"]["email"] == client_user.email
    assert body["location"] == "12 Elm Street, Springfield"
    assert body["maxBudget"] == 45


def test_create_takes_the_written_date_of_an_iso_datetime(client, client_user):
    client.force_login(client_user)
    day = timezone.localdate() + dt.timedelta(days=3)
    response = call(
        client, "POST", "/api/service-requests", valid_request_body(preferredDate=f"{day.isoformat()}T00:00:00.000Z")
    )
    assert response.status_code == 201
    assert response.json()["preferredDate"] == day.isoformat()


def test_defaults_apply_when_optional_fields_are_left_out(client, client_user):
    client.force_login(client_user)
    body = valid_request_body()
    for name in ("urgency", "estimatedDuration", "maxBudget", "preferredTime", "specialRequirements"):
        body.pop(name)
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 201
    assert (response.json()["urgency"], response.json()["estimatedDuration"]) == ("normal", 60)
    assert response.json()["maxBudget"] is None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("title", "", "Title is required"),
        ("description", "too short", "Description must be at least 10 characters"),
        ("categoryId", 0, "Category is required"),
        ("categoryId", 999999, "Category is required"),
        ("location", "", "Location is required"),
        ("estimatedDuration", 10, "Duration must be at least 15 minutes"),
        ("estimatedDuration", 50, "Duration must be in steps of 15 minutes"),
        ("maxBudget", 42, "Budget must be in steps of $5"),
        ("maxBudget", -5, None),
        ("urgency", "whenever", "Urgency must be low, normal, high or urgent."),
        ("preferredTime", "night", "Preferred time must be morning, afternoon, evening or flexible."),
        ("preferredDate", "yesterday", "Enter a valid date (YYYY-MM-DD)."),
        ("title", 123, None),
        ("estimatedDuration", "60", None),
        ("maxBudget", "forty", None),
        ("categoryId", "1", None),
    ],
)
def test_create_rejects_invalid_fields_with_the_spec_messages(client, client_user, field, value, message):
    client.force_login(client_user)
    response = call(client, "POST", "/api/service-requests", valid_request_body(**{field: value}))
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == [field]
    if message:
        assert errors[field] == [message]
    assert not ServiceRequest.objects.exists()


def test_preferred_date_cannot_be_in_the_past_in_the_site_zone(client, client_user):
    client.force_login(client_user)
    yesterday = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    response = call(client, "POST", "/api/service-requests", valid_request_body(preferredDate=yesterday))
    assert response.status_code == 400
    assert response.json()["errors"] == {"preferredDate": ["Preferred date cannot be in the past."]}
    today = timezone.localdate().isoformat()
    assert call(client, "POST", "/api/service-requests", valid_request_body(preferredDate=today)).status_code == 201


def test_create_rejects_unknown_fields_and_non_objects(client, client_user):
    client.force_login(client_user)
    unknown = call(client, "POST", "/api/service-requests", valid_request_body(status="booked"))
    assert unknown.status_code == 400
    assert unknown.json()["errors"] == {"status": ["Unknown field."]}
    assert call(client, "POST", "/api/service-requests", ["not", "an", "object"]).status_code == 400


def test_urgent_is_offered_on_create_but_not_on_edit(client, client_user):
    client.force_login(client_user)
    created = call(client, "POST", "/api/service-requests", valid_request_body(urgency="urgent"))
    assert created.status_code == 201
    edited = call(client, "PUT", f"/api/service-requests/{created.json()['id']}", valid_request_body(urgency="urgent"))
    assert edited.status_code == 400
    assert edited.json()["errors"] == {"urgency": ["Urgency must be low, normal or high."]}


def test_client_edits_an_open_request(client, client_user):
    service_request = ServiceRequestFactory(client=client_user)
    client.force_login(client_user)
    body = valid_request_body(
        title="New title",
        estimatedDuration=7,
        categoryId=category_id("light-errands"),
        urgency="high",
    )
    response = call(client, "PUT", f"/api/service-requests/{service_request.pk}", body)
    assert response.status_code == 200, response.content
    service_request.refresh_from_db()
    assert (service_request.title, service_request.estimated_duration, service_request.urgency) == (
        "New title",
        7,
        "high",
    )
    assert service_request.category.slug == "light-errands"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("title", "", "Title is required"),
        ("description", "short", "Description must be at least 10 characters"),
        ("categoryId", None, "Category is required"),
        ("location", "", "Location is required"),
        ("estimatedDuration", 0, "Duration must be at least 1 minute"),
    ],
)
def test_edit_uses_the_edit_page_messages(client, client_user, field, value, message):
    service_request = ServiceRequestFactory(client=client_user)
    client.force_login(client_user)
    response = call(client, "PUT", f"/api/service-requests/{service_request.pk}", valid_request_body(**{field: value}))
    assert response.status_code == 400
    assert response.json()["errors"] == {field: [message]}


@pytest.mark.parametrize("status", [RequestStatus.BOOKED, RequestStatus.COMPLETED, RequestStatus.CANCELLED])
def test_only_open_requests_can_be_edited_or_deleted(client, client_user, status):
    service_request = ServiceRequestFactory(client=client_user, status=status)
    client.force_login(client_user)
    assert call(client, "PUT", f"/api/service-requests/{service_request.pk}", valid_request_body()).status_code == 409
    assert call(client, "DELETE", f"/api/service-requests/{service_request.pk}").status_code == 409
    assert ServiceRequest.objects.filter(pk=service_request.pk, status=status).exists()


def test_client_deletes_an_open_request(client, client_user):
    service_request = ServiceRequestFactory(client=client_user)
    client.force_login(client_user)
    assert call(client, "DELETE", f"/api/service-requests/{service_request.pk}").status_code == 204
    assert not ServiceRequest.objects.filter(pk=service_request.pk).exists()
    assert call(client, "GET", f"/api/service-requests/{service_request.pk}").status_code == 404
    assert service_request.pk not in [r["id"] for r in call(client, "GET", "/api/service-requests").json()]
    for verb in ("PUT", "DELETE"):
        body = valid_request_body() if verb == "PUT" else None
        assert call(client, verb, f"/api/service-requests/{service_request.pk}", body).status_code == 404


def test_a_deleted_request_leaves_staff_a_trace_without_its_address(client, client_user, admin_user):
    service_request = ServiceRequestFactory(
        client=client_user, title="Tablet help", location="45 Oak Avenue", special_requirements="Door code 4321"
    )
    client.force_login(client_user)
    assert call(client, "DELETE", f"/api/service-requests/{service_request.pk}").status_code == 204

    trace = ServiceRequest.all_objects.get(pk=service_request.pk)
    assert (trace.status, trace.title) == (RequestStatus.DELETED, "Tablet help")
    assert (trace.location, trace.special_requirements) == ("", "")

    client.force_login(admin_user)
    rows = call(client, "GET", "/api/admin/service-requests").json()
    rows = rows["items"] if isinstance(rows, dict) else rows
    (row,) = [r for r in rows if r["id"] == service_request.pk]
    assert row["status"] == "deleted"
    deleted_only = call(client, "GET", "/api/admin/service-requests?status=deleted").json()
    deleted_only = deleted_only["items"] if isinstance(deleted_only, dict) else deleted_only
    assert [r["id"] for r in deleted_only] == [service_request.pk]


def test_list_is_own_requests_for_clients_open_requests_of_others_for_providers_all_for_admins(
    client, client_user, verified_provider, admin_user
):
    own_open = ServiceRequestFactory(client=client_user)
    own_booked = ServiceRequestFactory(client=client_user, status=RequestStatus.BOOKED)
    others_open = ServiceRequestFactory(client=UserFactory())
    ServiceRequestFactory(client=UserFactory(), status=RequestStatus.BOOKED)
    providers_own = ServiceRequestFactory(client=verified_provider.user)

    def ids(user):
        client.force_login(user)
        response = call(client, "GET", "/api/service-requests")
        assert response["X-Total-Count"] == str(len(response.json()))
        return {r["id"] for r in response.json()}

    assert ids(client_user) == {own_open.pk, own_booked.pk}
    assert ids(verified_provider.user) == {own_open.pk, others_open.pk}
    assert len(ids(admin_user)) == 5
    assert providers_own.pk not in ids(verified_provider.user)


def test_location_is_shown_to_the_client_verified_providers_while_open_and_the_booked_provider_only(
    client, client_user, verified_provider, provider_user, admin_user
):
    open_request = ServiceRequestFactory(client=client_user)
    booking = BookingFactory(service_request__client=client_user, status=BookingStatus.CONFIRMED)
    booked_request = booking.service_request

    def location(user, service_request):
        client.force_login(user)
        response = call(client, "GET", f"/api/service-requests/{service_request.pk}")
        assert response.status_code == 200
        return response.json()["location"]

    assert location(client_user, open_request) == open_request.location
    # Before a booking, the town and ZIP only (never the street line); staff the same.
    assert location(verified_provider.user, open_request) == open_request.area == "Springfield"
    client.force_login(provider_user)  # pending: the request is not theirs to see at all
    assert call(client, "GET", f"/api/service-requests/{open_request.pk}").status_code == 404
    assert location(admin_user, open_request) == "Springfield"
    assert location(booking.provider.user, booked_request) == booked_request.location == "12 Elm Street, Springfield"
    assert location(admin_user, booked_request) == "Springfield"
    client.force_login(verified_provider.user)
    assert call(client, "GET", f"/api/service-requests/{booked_request.pk}").status_code == 404


def test_providers_see_the_client_without_email_on_open_requests(client, client_user, verified_provider):
    service_request = ServiceRequestFactory(client=client_user)
    client.force_login(verified_provider.user)
    client_data = call(client, "GET", f"/api/service-requests/{service_request.pk}").json()["client"]
    assert client_data["firstName"] == "Clara"
    assert "email" not in client_data


def test_categories_are_public(client, db):
    response = call(client, "GET", "/api/service-categories")
    assert response.status_code == 200
    assert [c["slug"] for c in response.json()][:2] == ["tech-support", "wellness-checks"]
    assert response["X-Total-Count"] == "6"


def test_null_optional_texts_mean_none_chosen(client, client_user):
    client.force_login(client_user)
    body = valid_request_body(preferredTime=None, specialRequirements=None, maxBudget=None)
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 201, response.content
    assert (response.json()["preferredTime"], response.json()["specialRequirements"]) == ("", "")
