"""A review of a completed visit."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.db.models import Avg, Count
from django.utils.translation import gettext, pgettext

from accounts.models import User
from bookings.models import CENT, BookingStatus, Review
from bookings.services.base import booking_lock, check_booking_client, check_booking_status, notify_people
from core.errors import Conflict, InvalidInput
from core.notices.bookings import InApp
from providers.models import Provider


def review_create(*, booking_id: int, actor: User, rating: int, comment: str = "") -> Review:
    """An organizer of the recipient's circle reviews a completed booking, once per booking; the
    provider's rating and totalReviews are recomputed.

    Locks the booking (one review per booking) then the provider row, and recomputes with an
    aggregate, so concurrent reviews of one provider stay right.
    """
    if isinstance(rating, bool) or not isinstance(rating, int) or not 1 <= rating <= 5:
        raise InvalidInput(
            gettext("Rating must be a whole number from 1 to 5."), errors={"rating": [gettext("Must be 1 to 5.")]}
        )
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "review"))
        check_booking_status(booking, (BookingStatus.COMPLETED,), pgettext("booking state change", "reviewed"))
        # Any organizer of the circle may review, once per booking for the whole circle (the row
        # lock above orders two organizers' attempts): one visit counts once in the provider's rating.
        earlier = Review.objects.filter(booking=booking).values_list("reviewer_id", flat=True).first()
        if earlier == actor.pk:
            raise Conflict(gettext("You have already reviewed this booking."))
        if earlier is not None:
            raise Conflict(gettext("Someone in this care circle has already reviewed this booking."))
        provider = Provider.objects.select_for_update().get(pk=booking.provider_id)
        review = Review.objects.create(
            booking=booking, reviewer=actor, reviewed_id=provider.user_id, rating=rating, comment=comment.strip()
        )
        stats = Review.objects.filter(reviewed_id=provider.user_id).aggregate(avg=Avg("rating"), n=Count("id"))
        provider.rating = Decimal(stats["avg"] or 0).quantize(CENT, rounding=ROUND_HALF_UP)
        provider.total_reviews = stats["n"]
        provider.save(update_fields=["rating", "total_reviews", "updated_at"])
        notify_people([booking.provider.user], InApp.REVIEW_RECEIVED, booking, rating=rating)
    return review
