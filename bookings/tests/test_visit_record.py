"""The visit's record: the family's task list (asked for, carried by each visit, marked at
check-out) and check-in and check-out where the senior lives (verified, or unverified with the
helper's reason, never blocked)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus, VisitTaskOutcome
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.api import call, valid_request_body
from requests_app.models import ServiceRequest

# The home of the person cared for, and places around it.
HOME = (40.7484, -73.9857)
NEXT_DOOR = (40.7489, -73.9850)  # about 80 m away
ACROSS_TOWN = (40.7829, -73.9654)  # about 4 km away
TASKS = ["Set up video calls", "Pick up prescriptions", "Water the plants"]


@pytest.fixture
def booking(db):
    """A paid, confirmed visit to a placed home, with a three-item task list and a circle of two."""
    booking = BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
        service_request__tasks=TASKS,
    )
    recipient = booking.recipient
    recipient.latitude, recipient.longitude = HOME
    recipient.save(update_fields=["latitude", "longitude"])
    brother = UserFactory(first_name="Tom")
    CircleMember.objects.create(recipient=recipient, user=brother, role=CircleRole.MEMBER)
    booking.brother = brother
    return booking


@pytest.fixture(autouse=True)
def street_geocoder(settings):
    """Homes placed to the street (a geopy service): only then is a position compared with them."""
    settings.GEOCODER = "nominatim"


def _during(booking):
    return time_machine.travel(booking.starts_at + dt.timedelta(minutes=5), tick=False)


def _check_in(client, booking, body):
    client.force_login(booking.provider.user)
    with _during(booking):
        return call(client, "POST", f"/api/bookings/{booking.pk}/check-in", body)


def _position(place, accuracy=20.0):
    return {"latitude": place[0], "longitude": place[1], "accuracy": accuracy}


# ------------------------------------------------------------------ the task list on the request


def test_the_family_lists_the_visits_tasks_tidied_in_order(client, client_user):
    client.force_login(client_user)
    body = valid_request_body(tasks=["  Set up   video calls ", "", "Pick up prescriptions"])
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 201, response.content
    assert response.json()["tasks"] == ["Set up video calls", "Pick up prescriptions"]
    assert ServiceRequest.objects.get().tasks == ["Set up video calls", "Pick up prescriptions"]


@pytest.mark.parametrize(
    ("tasks", "message"),
    [
        ([f"Task {i}" for i in range(11)], "A visit can have at most 10 tasks."),
        (["x" * 121], "Each task can be at most 120 characters."),
        (["Water the plants", "water the  plants"], "Each task can be listed once."),
    ],
)
def test_a_task_list_beyond_its_rules_is_a_400_and_nothing_is_saved(client, client_user, tasks, message):
    client.force_login(client_user)
    response = call(client, "POST", "/api/service-requests", valid_request_body(tasks=tasks))
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {"tasks": [message]}}
    assert not ServiceRequest.objects.exists()


def test_the_helper_sees_the_task_list_before_accepting_and_on_the_booking(client, booking):
    client.force_login(booking.provider.user)
    detail = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert detail["serviceRequest"]["tasks"] == TASKS
    assert detail["visitRecord"]["tasksTotal"] == 3
    assert detail["visitRecord"]["tasksDone"] is None
    other = BookingFactory(service_request__tasks=["Change the light bulb"]).service_request
    other.status = "open"
    other.save(update_fields=["status"])
    seen = call(client, "GET", f"/api/service-requests/{other.pk}")
    assert seen.status_code == 200
    assert seen.json()["tasks"] == ["Change the light bulb"]


# ------------------------------------------------------------------ check-in where the senior lives


def test_a_check_in_at_the_home_is_verified(client, booking):
    response = _check_in(client, booking, _position(NEXT_DOOR))
    assert response.status_code == 200, response.content
    record = response.json()["visitRecord"]
    assert record["checkInVerified"] is True
    assert record["checkInReason"] == ""
    booking.refresh_from_db()
    assert booking.check_in_verified is True
    # Only the rounded point is kept.
    assert str(booking.check_in_latitude) == "40.749"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (_position(ACROSS_TOWN), "You seem to be about 2.6 miles from"),
        ({"latitude": 0, "longitude": 0, "accuracy": 10}, "did not share where you are"),
        ({}, "did not share where you are"),
        (_position(HOME, accuracy=5000), "only tell roughly where you are"),
    ],
)
def test_away_from_the_home_the_helper_says_why_and_the_visit_is_unverified(client, booking, body, problem):
    refused = _check_in(client, booking, body)
    assert refused.status_code == 400
    assert problem in refused.json()["errors"]["reason"][0]
    booking.refresh_from_db()
    assert booking.checked_in_at is None  # nothing saved without the reason

    response = _check_in(client, booking, {**body, "reason": "  The visit moved to   the clinic "})
    assert response.status_code == 200, response.content
    record = response.json()["visitRecord"]
    assert record["checkInVerified"] is False
    assert record["checkInReason"] == "The visit moved to the clinic"
    booking.refresh_from_db()
    assert booking.checked_in_at is not None
    if body.get("latitude") == 0:
        assert booking.check_in_latitude is None  # 0,0 is not a place: nothing kept


def test_one_visit_one_check_in(client, booking):
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    again = _check_in(client, booking, _position(HOME))
    assert again.status_code == 409
    assert "already checked in" in again.json()["message"]


def test_a_home_without_coordinates_cannot_be_compared_and_asks_no_reason(client, booking):
    booking.recipient.latitude = booking.recipient.longitude = None
    booking.recipient.save(update_fields=["latitude", "longitude"])
    response = _check_in(client, booking, {})
    assert response.status_code == 200, response.content
    assert response.json()["visitRecord"]["checkInVerified"] is None


def test_homes_placed_at_their_zip_codes_centre_are_not_compared(client, booking, settings):
    settings.GEOCODER = "zip"
    response = _check_in(client, booking, _position(ACROSS_TOWN))
    assert response.status_code == 200, response.content
    assert response.json()["visitRecord"]["checkInVerified"] is None


def test_make_runs_demo_geocoder_compares_its_demo_home_only(client, booking, settings):
    """GEOCODER=demo (make run): the demo's home is placed to the street and compared; any other
    home is at its ZIP code's centre and is not."""
    from core.addresses import Address
    from core.geocoding import DEMO_STREETS, geocoder

    settings.GEOCODER = "demo"
    response = _check_in(client, booking, _position(ACROSS_TOWN))
    assert response.status_code == 200, response.content
    assert response.json()["visitRecord"]["checkInVerified"] is None  # the factory's home: not a demo one

    (street, zip_code), point = next(iter(DEMO_STREETS.items()))
    assert geocoder().locate(Address(street="12  Elm Street", zip_code=zip_code)) == point
    recipient = booking.recipient
    recipient.street, recipient.zip_code = "12 Elm Street", zip_code
    recipient.latitude, recipient.longitude = point.latitude, point.longitude
    recipient.save(update_fields=["street", "zip_code", "latitude", "longitude"])
    booking.refresh_from_db()
    booking.checked_in_at = None
    booking.save(update_fields=["checked_in_at"])
    at_home = {"latitude": point.latitude, "longitude": point.longitude, "accuracy": 20}
    response = _check_in(client, booking, at_home)
    assert response.status_code == 200, response.content
    assert response.json()["visitRecord"]["checkInVerified"] is True


def test_the_radius_is_a_setting(client, booking, settings):
    settings.VISIT_PLACE_RADIUS_METERS = 50
    refused = _check_in(client, booking, _position(NEXT_DOOR))
    assert refused.status_code == 400
    assert "about 80 m from" in refused.json()["errors"]["reason"][0]


# ------------------------------------------------------------------ check-out: each task marked


def _check_out(client, booking, body):
    client.force_login(booking.provider.user)
    with time_machine.travel(booking.starts_at + dt.timedelta(minutes=55), tick=False):
        return call(client, "POST", f"/api/bookings/{booking.pk}/check-out", body)


DONE_TWO = [
    {"done": True},
    {"done": False, "reason": "The pharmacy was closed"},
    {"done": True},
]


def test_check_out_asks_for_every_task_and_a_reason_for_each_not_done(client, booking):
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    unmarked = _check_out(client, booking, _position(HOME))
    assert unmarked.status_code == 400
    assert unmarked.json()["errors"] == {"tasks": ["Mark each task done or not done."]}
    no_reason = _check_out(
        client, booking, {**_position(HOME), "tasks": [{"done": True}, {"done": False}, {"done": True}]}
    )
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"] == {"tasks.1.reason": ["Say in a few words why this was not done."]}
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
    assert not VisitTaskOutcome.objects.exists()


def test_check_out_keeps_each_tasks_outcome_for_the_circle(client, booking):
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    response = _check_out(client, booking, {**_position(NEXT_DOOR), "tasks": DONE_TWO})
    assert response.status_code == 200, response.content
    record = response.json()["visitRecord"]
    assert record["tasksDone"] == 2
    assert record["tasksTotal"] == 3
    assert record["checkOutVerified"] is True
    assert record["taskOutcomes"] == [
        {"task": "Set up video calls", "done": True, "reason": ""},
        {"task": "Pick up prescriptions", "done": False, "reason": "The pharmacy was closed"},
        {"task": "Water the plants", "done": True, "reason": ""},
    ]
    # The brother in the circle reads the same record, in the list and the detail.
    client.force_login(booking.brother)
    listed = call(client, "GET", "/api/bookings").json()
    assert [b["visitRecord"]["tasksDone"] for b in listed if b["id"] == booking.pk] == [2]
    detail = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert len(detail["visitRecord"]["taskOutcomes"]) == 3
    # Someone outside the circle does not see the visit at all.
    client.force_login(UserFactory())
    assert call(client, "GET", f"/api/bookings/{booking.pk}").status_code == 404


def test_a_check_out_away_from_the_home_needs_a_reason_too(client, booking):
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    refused = _check_out(client, booking, {**_position(ACROSS_TOWN), "tasks": DONE_TWO})
    assert refused.status_code == 400
    assert "reason" in refused.json()["errors"]
    response = _check_out(client, booking, {**_position(ACROSS_TOWN), "tasks": DONE_TWO, "reason": "Took her home"})
    assert response.status_code == 200
    assert response.json()["visitRecord"]["checkOutVerified"] is False
    assert response.json()["visitRecord"]["checkOutReason"] == "Took her home"


def test_a_visit_without_a_task_list_checks_out_as_before(client, booking):
    ServiceRequest.all_objects.filter(pk=booking.service_request_id).update(tasks=[])
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    response = _check_out(client, booking, _position(HOME))
    assert response.status_code == 200, response.content
    assert response.json()["visitRecord"]["tasksDone"] is None


# ------------------------------------------------------------------ the month's visit record (CSV)


def test_an_organizer_exports_the_months_visits_with_places_and_tasks(client, booking):
    import csv
    import io

    assert _check_in(client, booking, {**_position(ACROSS_TOWN), "reason": "Met at the clinic"}).status_code == 200
    assert _check_out(client, booking, {**_position(HOME), "tasks": DONE_TWO}).status_code == 200
    client.force_login(booking.client)
    month = f"{booking.scheduled_date:%Y-%m}"
    response = client.get(f"/api/recipients/{booking.recipient_id}/visit-record.csv?month={month}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 1
    row = rows[0]
    assert row["Date"] == booking.scheduled_date.isoformat()
    assert row["Person cared for"] == booking.recipient.full_name
    assert row["Helper"] == booking.provider.user.full_name
    assert (row["Check-in place"], row["Check-in reason"]) == ("Not at the home", "Met at the clinic")
    assert row["Check-out place"] == "At the home"
    assert row["Tasks done"] == "Set up video calls; Water the plants"
    assert row["Tasks not done (why)"] == "Pick up prescriptions (The pharmacy was closed)"
    # Another month holds none of it; a month not read is a 400.
    empty = client.get(f"/api/recipients/{booking.recipient_id}/visit-record.csv?month=2001-01")
    assert len(list(csv.reader(io.StringIO(empty.content.decode())))) == 1
    bad = client.get(f"/api/recipients/{booking.recipient_id}/visit-record.csv?month=November")
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"month": ["Choose a month as YYYY-MM, for example 2026-11."]}
    # The brother is a plain member: the export is the organizers'.
    client.force_login(booking.brother)
    assert client.get(f"/api/recipients/{booking.recipient_id}/visit-record.csv?month={month}").status_code == 403


def test_the_report_notice_tells_the_circle_the_visit_in_one_line(client, booking):
    from messaging.models import Message

    booking.provider.user.first_name = "Vera"
    booking.provider.user.save(update_fields=["first_name"])
    booking.recipient.first_name = "Margaret"
    booking.recipient.save(update_fields=["first_name"])
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    report = {"notes": "We had tea.", "wellbeing": 4}
    assert _check_out(client, booking, {**_position(HOME), "tasks": DONE_TWO, "report": report}).status_code == 200
    texts = Message.objects.filter(receiver=booking.brother, sender__isnull=True).values_list("content", flat=True)
    report_notice = next(t for t in texts if t.startswith("Visit report ready"))
    assert re.search(
        r"Vera arrived \d{1,2}:\d\d [AP]M \(at Margaret's home\) · 2 of 3 tasks done · left \d{1,2}:\d\d [AP]M\.",
        report_notice,
    ), report_notice


def test_the_visit_report_tells_the_circle_each_task_and_why_one_was_not_done(client, booking):
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    report = {"notes": "We had tea.", "wellbeing": 4}
    assert _check_out(client, booking, {**_position(HOME), "tasks": DONE_TWO, "report": report}).status_code == 200
    client.force_login(booking.brother)

    read = call(client, "GET", f"/api/bookings/{booking.pk}/report")

    assert read.status_code == 200, read.content
    assert read.json()["familyTasks"] == [
        {"task": "Set up video calls", "done": True, "reason": ""},
        {"task": "Pick up prescriptions", "done": False, "reason": "The pharmacy was closed"},
        {"task": "Water the plants", "done": True, "reason": ""},
    ]


def test_staff_see_the_share_of_verified_check_ins_per_helper(client, booking, admin_user):
    assert _check_in(client, booking, {**_position(ACROSS_TOWN), "reason": "Met at the clinic"}).status_code == 200
    other = BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=4),
        service_request__recipient=booking.recipient,
        service_request__client=booking.client,
    )
    assert _check_in(client, other, _position(HOME)).status_code == 200
    client.force_login(admin_user)
    rows = call(client, "GET", "/api/admin/visit-verification").json()
    by_helper = {row["providerId"]: row for row in rows}
    assert by_helper[booking.provider_id]["share"] == 0.0
    assert by_helper[booking.provider_id]["unverified"] == 1
    assert by_helper[other.provider_id]["share"] == 1.0
    assert rows[0]["providerId"] == booking.provider_id  # the lowest share first


def test_the_visit_record_has_a_pdf_twin_with_the_same_rows(client, booking):
    import io

    from pypdf import PdfReader

    assert _check_in(client, booking, {**_position(ACROSS_TOWN), "reason": "Met at the clinic"}).status_code == 200
    assert _check_out(client, booking, {**_position(HOME), "tasks": DONE_TWO}).status_code == 200
    client.force_login(booking.client)
    month = f"{booking.scheduled_date:%Y-%m}"
    response = client.get(f"/api/recipients/{booking.recipient_id}/visit-record.pdf?month={month}")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert f'filename="kindly-visits-{booking.recipient_id}-{month}.pdf"' in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(response.content)).pages)
    assert f"Visit record for {booking.scheduled_date:%B %Y}" in text
    for expected in (
        booking.recipient.full_name,
        booking.provider.user.full_name,
        booking.scheduled_date.isoformat(),
        "Not at the home",
        "Met at the clinic",
        "At the home",
        "Pick up prescriptions (The pharmacy was closed)",
    ):
        assert expected in text, expected
    bad = client.get(f"/api/recipients/{booking.recipient_id}/visit-record.pdf?month=Nov")
    assert bad.status_code == 400
    client.force_login(booking.brother)
    assert client.get(f"/api/recipients/{booking.recipient_id}/visit-record.pdf?month={month}").status_code == 403


def test_the_report_reaches_a_spanish_reader_in_spanish_and_its_email_names_the_task_not_done(client, booking):
    """The visit's facts are kept as data, so each reader has them in her own words: the brother
    reads Spanish ("llegó", "2 de 3 tareas hechas", how his mother seemed); his email lists the
    task not done and the helper's reason."""
    from messaging.models import Message
    from notifications.channels import email_message
    from notifications.models import Delivery

    booking.brother.language = "es"
    booking.brother.save(update_fields=["language"])
    booking.recipient.first_name = "Margaret"
    booking.recipient.save(update_fields=["first_name"])
    assert _check_in(client, booking, _position(HOME)).status_code == 200
    report = {"notes": "We had tea.", "wellbeing": 4}
    assert _check_out(client, booking, {**_position(HOME), "tasks": DONE_TWO, "report": report}).status_code == 200

    texts = Message.objects.filter(receiver=booking.brother, sender__isnull=True).values_list("content", flat=True)
    spanish = next(t for t in texts if "2 de 3 tareas hechas" in t)
    assert "en casa de Margaret" in spanish and "bien" in spanish.lower(), spanish
    assert " arrived " not in spanish and "tasks done" not in spanish, spanish

    delivery = Delivery.objects.filter(recipient=booking.brother, event__kind="visit_updates", channel="email").latest(
        "pk"
    )
    mail = email_message(delivery)
    assert "Pick up prescriptions (The pharmacy was closed)" in mail.body, mail.body
