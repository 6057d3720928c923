"""The visit's photo: at check-out the helper may add one photo for the family (a finished puzzle,
the tidied kitchen). It is private: stored through settings.STORAGES["visit_photos"] (a folder
outside static/ and media under make run and tests, a private bucket in production), never given a
public URL, and shown through a signed link that expires after an hour and works only for the
person it was made for.

Who may add it: the booked helper, once she has checked in, until ADDRESS_KEPT_AFTER_VISIT (4 h)
after her check-out (the window she has for the visit report); one photo per visit (a second is a
409). Who may see it: everyone in the person's circle (organizers and members: it is part of the
visit's timeline), and the booked helper while the booking is on (confirmed) or within that same
window after check-out; anyone else who can see the booking (staff, a replaced helper) 403,
anyone who cannot 404.

Bad input is a 400 with plain words and nothing saved: more than 8 MB, or not a JPEG, PNG or WebP
image that Pillow can open. What is kept is the image re-encoded (at most 2,000 px on its long
side, as JPEG), so no metadata survives: a phone's photo carries where it was taken.
The photo goes with the check-in points, 90 days after the visit (visit_photos_purge).
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import uuid
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.core import signing
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext
from PIL import Image, ImageOps, UnidentifiedImageError

from bookings.models import LOCATION_KEPT, Booking, BookingStatus, VisitPhoto, visit_photo_storage
from bookings.selectors import booking_get
from bookings.services.base import booking_lock, check_booking_provider, push_update
from circles.models import CircleMember
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from requests_app.models import ADDRESS_KEPT_AFTER_VISIT

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

PHOTO_MAX_BYTES = 8 * 1024 * 1024
PHOTO_MAX_SIDE = 2000
PHOTO_FORMATS = {"JPEG", "PNG", "WEBP"}
LINK_MAX_AGE = dt.timedelta(hours=1)
_SALT = "kindly.visit-photo"

PHOTO_MISSING = gettext_lazy("Choose a photo to add.")
PHOTO_TOO_LARGE = gettext_lazy("This photo is too large. Choose one of at most 8 MB.")
PHOTO_NOT_IMAGE = gettext_lazy("This file is not a photo we can show. Choose a JPEG, PNG or WebP picture.")
PHOTO_ONE_ONLY = gettext_lazy("This visit already has its photo. One photo can be added to each visit.")
PHOTO_NOT_YET = gettext_lazy("A photo can be added once you have checked in.")
PHOTO_TOO_LATE = gettext_lazy("A photo can be added up to 4 hours after the visit.")
PHOTO_CIRCLE_ONLY = gettext_lazy("Only the care circle and the visit's helper can see this photo.")
PHOTO_NONE = gettext_lazy("This visit has no photo.")
LINK_EXPIRED = gettext_lazy("This photo link has expired. Open the visit again to see the photo.")


# ---------------------------------------------------------------- checks


def _photo_problem(upload: IO[bytes] | None) -> tuple[bytes, str]:
    """The photo re-encoded as JPEG, or a 400 (nothing saved)."""
    if upload is None:
        raise InvalidInput(PHOTO_MISSING, errors={"photo": [PHOTO_MISSING]})
    size = getattr(upload, "size", None)
    if size is not None and size > PHOTO_MAX_BYTES:
        raise InvalidInput(PHOTO_TOO_LARGE, errors={"photo": [PHOTO_TOO_LARGE]})
    data = upload.read(PHOTO_MAX_BYTES + 1)
    if len(data) > PHOTO_MAX_BYTES:
        raise InvalidInput(PHOTO_TOO_LARGE, errors={"photo": [PHOTO_TOO_LARGE]})
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in PHOTO_FORMATS:
                raise InvalidInput(PHOTO_NOT_IMAGE, errors={"photo": [PHOTO_NOT_IMAGE]})
            probe.verify()
        with Image.open(io.BytesIO(data)) as image:
            image = ImageOps.exif_transpose(image)
            image.thumbnail((PHOTO_MAX_SIDE, PHOTO_MAX_SIDE))
            out = io.BytesIO()
            image.convert("RGB").save(out, format="JPEG", quality=85)
    except InvalidInput:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError):
        raise InvalidInput(PHOTO_NOT_IMAGE, errors={"photo": [PHOTO_NOT_IMAGE]}) from None
    return out.getvalue(), "image/jpeg"


def _check_may_add(booking: Booking, actor: User, now: dt.datetime) -> None:
    check_booking_provider(booking, actor, pgettext("booking action", "add a photo to"))
    if booking.status == BookingStatus.CONFIRMED and booking.checked_in_at is not None:
        return
    if booking.status == BookingStatus.COMPLETED and booking.checked_out_at is not None:
        if now - booking.checked_out_at <= ADDRESS_KEPT_AFTER_VISIT:
            return
        raise Conflict(PHOTO_TOO_LATE)
    raise Conflict(PHOTO_NOT_YET)


def _in_circle(user: User, booking: Booking) -> bool:
    return CircleMember.objects.filter(user_id=user.pk, recipient_id=booking.recipient_id).exists()


def _helper_while_booked(user: User, booking: Booking, now: dt.datetime) -> bool:
    """The booked helper, while the booking is on or just after her check-out (the address rule)."""
    if booking.provider.user_id != user.pk:
        return False
    if booking.status == BookingStatus.CONFIRMED:
        return True
    done = booking.checked_out_at
    return booking.status == BookingStatus.COMPLETED and done is not None and now - done <= ADDRESS_KEPT_AFTER_VISIT


def check_may_see(user: User, booking: Booking, now: dt.datetime | None = None) -> None:
    """403 unless the user is in the circle or is the helper while booked (the caller has shown the
    booking is visible to the user, else 404)."""
    if not (_in_circle(user, booking) or _helper_while_booked(user, booking, now or timezone.now())):
        raise PermissionDenied(PHOTO_CIRCLE_ONLY)


# ---------------------------------------------------------------- writes


def visit_photo_add(
    *, booking_id: int, actor: User, upload: IO[bytes] | None, now: dt.datetime | None = None
) -> VisitPhoto:
    """The helper adds the visit's one photo. The file is written before the row's transaction and
    removed again when the row cannot be saved (no storage call holds a lock: in production it is a
    bucket across the network)."""
    now = now or timezone.now()
    booking = booking_get(user=actor, pk=booking_id)  # 404 for a booking she cannot see
    _check_may_add(booking, actor, now)
    if VisitPhoto.objects.filter(booking_id=booking.pk).exists():
        raise Conflict(PHOTO_ONE_ONLY)
    data, content_type = _photo_problem(upload)
    storage = visit_photo_storage()
    name = storage.save(f"{booking.pk}/{uuid.uuid4().hex}.jpg", ContentFile(data))
    try:
        with transaction.atomic():
            locked = booking_lock(booking_id=booking.pk)
            _check_may_add(locked, actor, now)
            try:
                with transaction.atomic():
                    photo = VisitPhoto.objects.create(
                        booking=locked, file=name, content_type=content_type, size=len(data), uploaded_by=actor
                    )
            except IntegrityError:
                raise Conflict(PHOTO_ONE_ONLY) from None
            push_update(locked, hasPhoto=True)
    except Exception:
        storage.delete(name)
        raise
    return photo


def visit_photos_purge(*, now: dt.datetime | None = None) -> int:
    """Delete the photos of visits over 90 days old, with the check-in points
    (bookings.services.visit_locations_purge): the file first, then its row. Returns how many."""
    cutoff = (now or timezone.now()) - LOCATION_KEPT
    old = Q(booking__checked_in_at__lt=cutoff) | Q(booking__checked_in_at__isnull=True, created_at__lt=cutoff)
    storage = visit_photo_storage()
    removed = 0
    for photo in VisitPhoto.objects.filter(old).only("pk", "file"):
        try:
            storage.delete(photo.file.name)
        except OSError:
            logger.warning("visit photo %s: the file could not be deleted; tried again next run", photo.pk)
            continue
        VisitPhoto.objects.filter(pk=photo.pk).delete()
        removed += 1
    return removed


# ---------------------------------------------------------------- reads: the signed link


@dataclass(frozen=True)
class PhotoLink:
    url: str
    expires_at: dt.datetime


def photo_link(*, user: User, booking_id: int, now: dt.datetime | None = None) -> PhotoLink:
    """A link to the visit's photo for this user, good for an hour: 404 when the booking is not
    visible or has no photo, 403 for someone who sees the booking but not the photo."""
    now = now or timezone.now()
    booking = booking_get(user=user, pk=booking_id)
    check_may_see(user, booking, now)
    photo = VisitPhoto.objects.filter(booking_id=booking.pk).only("pk").first()
    if photo is None:
        raise NotFound(PHOTO_NONE)
    token = signing.TimestampSigner(salt=_SALT).sign_object({"p": photo.pk, "u": str(user.pk)}, compress=True)
    return PhotoLink(url=f"/visit-photos/{token}", expires_at=now + LINK_MAX_AGE)


def photo_from_link(*, user: User, token: str) -> VisitPhoto:
    """The photo a signed link names, when it is still good, was made for this user, and the user
    may still see it (a helper whose booking ended since gets a 403)."""
    signer = signing.TimestampSigner(salt=_SALT)
    try:
        claims = signer.unsign_object(token, max_age=LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise NotFound(LINK_EXPIRED) from None
    except signing.BadSignature:
        raise NotFound(PHOTO_NONE) from None
    if not isinstance(claims, dict) or str(claims.get("u")) != str(user.pk):
        raise NotFound(PHOTO_NONE)
    photo = VisitPhoto.objects.select_related("booking__provider").filter(pk=claims.get("p")).first()
    if photo is None:
        raise NotFound(PHOTO_NONE)
    check_may_see(user, photo.booking)
    return photo
