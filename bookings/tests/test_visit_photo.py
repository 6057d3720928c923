"""The visit's photo (bookings.visit_photo): the booked helper adds one at check-out; it is stored
privately, re-encoded without its metadata, and shown only through a signed link that expires, to
the circle and to the helper while booked; bad files are a 400 with nothing saved; it goes with the
check-in points after 90 days."""

from __future__ import annotations

import datetime as dt
import io
import os

import pytest
import time_machine
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus, VisitPhoto, visit_photo_storage
from bookings.tasks import purge_visit_locations
from bookings.tests.factories import BookingFactory
from bookings.visit_photo import PHOTO_MAX_BYTES, visit_photos_purge
from circles.models import CircleMember, CircleRole
from marketplace.testing.api import call

pytestmark = pytest.mark.django_db


@pytest.fixture
def booking(db):
    booking = BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
    )
    brother = UserFactory(first_name="Tom")
    CircleMember.objects.create(recipient=booking.recipient, user=brother, role=CircleRole.MEMBER)
    booking.brother = brother
    return booking


def _image(fmt="JPEG", size=(64, 48), exif=None) -> bytes:
    out = io.BytesIO()
    kwargs = {"exif": exif} if exif is not None else {}
    Image.new("RGB", size, "orange").save(out, format=fmt, **kwargs)
    return out.getvalue()


def _upload(client, booking, data: bytes, name="visit.jpg", content_type="image/jpeg", at=None):
    client.force_login(booking.provider.user)
    with time_machine.travel(at or booking.starts_at + dt.timedelta(minutes=50), tick=False):
        return client.post(
            f"/api/bookings/{booking.pk}/photo", {"photo": SimpleUploadedFile(name, data, content_type=content_type)}
        )


def _check_in(client, booking):
    client.force_login(booking.provider.user)
    with time_machine.travel(booking.starts_at + dt.timedelta(minutes=5), tick=False):
        assert call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {}).status_code == 200


def _check_out(client, booking):
    client.force_login(booking.provider.user)
    with time_machine.travel(booking.starts_at + dt.timedelta(minutes=55), tick=False):
        assert call(client, "POST", f"/api/bookings/{booking.pk}/check-out", {}).status_code == 200
    booking.refresh_from_db()


def _stored_files() -> list[str]:
    root = settings.STORAGES["visit_photos"]["OPTIONS"]["location"]
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files]


def test_the_helper_adds_a_photo_at_check_out_and_the_circle_sees_it_by_a_signed_link(client, booking):
    _check_in(client, booking)
    _check_out(client, booking)
    gps = Image.Exif()
    gps[0x8825] = {1: "N", 2: (40.0, 44.0, 54.0)}  # where it was taken
    response = _upload(client, booking, _image(exif=gps), at=booking.checked_out_at + dt.timedelta(minutes=2))

    assert response.status_code == 201, response.content
    photo = VisitPhoto.objects.get(booking=booking)
    assert photo.uploaded_by == booking.provider.user
    # Kept privately, re-encoded: no metadata (no place) survives, and no public URL exists.
    with photo.file.open("rb") as f:
        kept = Image.open(io.BytesIO(f.read()))
        assert kept.format == "JPEG" and not kept.getexif()
    assert not photo.file.name.startswith(("static", "media"))
    with pytest.raises(ValueError):
        visit_photo_storage().url(photo.file.name)

    # The son (a plain member) sees it on the visit, through a link made for him.
    client.force_login(booking.brother)
    detail = client.get(f"/api/bookings/{booking.pk}").json()
    assert detail["visitRecord"]["hasPhoto"] is True
    link = client.get(f"/api/bookings/{booking.pk}/photo").json()
    assert link["url"].startswith("/visit-photos/")
    image = client.get(link["url"])
    assert image.status_code == 200
    assert image["Content-Type"] == "image/jpeg"
    assert image["Cache-Control"] == "private, no-store"
    assert image.content.startswith(b"\xff\xd8")
    # The same link is nobody else's: another signed-in person, or nobody signed in.
    client.force_login(UserFactory())
    assert client.get(link["url"]).status_code == 404
    client.logout()
    assert client.get(link["url"]).status_code in (401, 403)


def test_a_link_expires_after_an_hour(client, booking):
    _check_in(client, booking)
    assert _upload(client, booking, _image()).status_code == 201
    client.force_login(booking.client)
    now = timezone.now()
    with time_machine.travel(now, tick=False):
        url = client.get(f"/api/bookings/{booking.pk}/photo").json()["url"]
    with time_machine.travel(now + dt.timedelta(minutes=59), tick=False):
        assert client.get(url).status_code == 200
    with time_machine.travel(now + dt.timedelta(minutes=61), tick=False):
        expired = client.get(url)
    assert expired.status_code == 404
    assert expired.json()["message"] == "This photo link has expired. Open the visit again to see the photo."
    # A link whose signature was changed names nothing.
    assert client.get(url[:-2] + ("AA" if not url.endswith("AA") else "BB")).status_code == 404


NOT_A_PHOTO = "This file is not a photo we can show. Choose a JPEG, PNG or WebP picture."


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (
            b"%PDF-1.7 not a photo",
            "visit.jpg",
            "This file is not a photo we can show. Choose a JPEG, PNG or WebP picture.",
        ),
        (
            b"\xff\xd8\xff\xe0" + b"0" * 100,
            "visit.jpg",
            "This file is not a photo we can show. Choose a JPEG, PNG or WebP picture.",
        ),
        (_image("GIF"), "visit.gif", "This file is not a photo we can show. Choose a JPEG, PNG or WebP picture."),
        (b"\xff\xd8" + b"0" * (PHOTO_MAX_BYTES + 1), "big.jpg", "This photo is too large. Choose one of at most 8 MB."),
    ],
    ids=["a-pdf", "a-broken-jpeg", "a-gif", "over-8-mb"],
)
def test_a_bad_file_is_a_400_in_plain_words_and_nothing_is_saved(client, booking, data, name, message):
    _check_in(client, booking)
    before = _stored_files()
    response = _upload(client, booking, data, name=name)
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {"photo": [message]}}
    assert not VisitPhoto.objects.exists()
    assert _stored_files() == before


def test_a_request_without_a_photo_is_a_400(client, booking):
    _check_in(client, booking)
    client.force_login(booking.provider.user)
    with time_machine.travel(booking.starts_at + dt.timedelta(minutes=50), tick=False):
        response = client.post(f"/api/bookings/{booking.pk}/photo", {})
    assert response.status_code == 400
    assert response.json()["errors"] == {"photo": ["Choose a photo to add."]}


def test_one_photo_per_visit_and_only_from_check_in_until_4_hours_after_check_out(client, booking):
    too_soon = _upload(client, booking, _image())
    assert too_soon.status_code == 409
    assert too_soon.json()["message"] == "A photo can be added once you have checked in."
    _check_in(client, booking)
    assert _upload(client, booking, _image("PNG"), name="a.png", content_type="image/png").status_code == 201
    files = _stored_files()
    second = _upload(client, booking, _image())
    assert second.status_code == 409
    assert second.json()["message"] == "This visit already has its photo. One photo can be added to each visit."
    assert _stored_files() == files
    assert VisitPhoto.objects.count() == 1

    other = BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        provider=booking.provider,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=5),
    )
    _check_in(client, other)
    _check_out(client, other)
    late = _upload(client, other, _image(), at=other.checked_out_at + dt.timedelta(hours=4, minutes=1))
    assert late.status_code == 409
    assert late.json()["message"] == "A photo can be added up to 4 hours after the visit."


def test_only_the_booked_helper_adds_it(client, booking):
    _check_in(client, booking)
    for user, expected in ((booking.client, 403), (booking.brother, 403), (UserFactory(), 404)):
        client.force_login(user)
        with time_machine.travel(booking.starts_at + dt.timedelta(minutes=50), tick=False):
            response = client.post(
                f"/api/bookings/{booking.pk}/photo",
                {"photo": SimpleUploadedFile("v.jpg", _image(), content_type="image/jpeg")},
            )
        assert response.status_code == expected
    assert not VisitPhoto.objects.exists()


def test_the_helper_sees_it_while_booked_and_not_after(client, booking):
    _check_in(client, booking)
    _check_out(client, booking)
    assert _upload(client, booking, _image(), at=booking.checked_out_at + dt.timedelta(minutes=1)).status_code == 201
    client.force_login(booking.provider.user)
    with time_machine.travel(booking.checked_out_at + dt.timedelta(hours=3, minutes=30), tick=False):
        url = client.get(f"/api/bookings/{booking.pk}/photo").json()["url"]
        assert client.get(url).status_code == 200
    # After the 4 hours a link she holds (still within its hour) stops working, and she gets no new one.
    with time_machine.travel(booking.checked_out_at + dt.timedelta(hours=4, minutes=10), tick=False):
        assert client.get(url).status_code == 403
        assert client.get(f"/api/bookings/{booking.pk}/photo").status_code == 403


def test_the_photo_goes_with_the_check_in_points_after_90_days(client, booking):
    _check_in(client, booking)
    assert _upload(client, booking, _image()).status_code == 201
    booking.refresh_from_db()
    name = VisitPhoto.objects.get().file.name
    assert visit_photos_purge(now=booking.checked_in_at + dt.timedelta(days=89)) == 0
    assert visit_photo_storage().exists(name)

    with time_machine.travel(booking.checked_in_at + dt.timedelta(days=91), tick=False):
        purge_visit_locations()
    assert not VisitPhoto.objects.exists()
    assert not visit_photo_storage().exists(name)
