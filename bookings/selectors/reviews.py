"""What the public reads of the helpers: their public reviews, their track records (completed
visits, completion, answer speed), a helper's profile, the landing page's featured reviews."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import F, QuerySet, Value, Window
from django.db.models.functions import RowNumber

from bookings.models import Booking, BookingStatus, Replacement, Review
from providers.models import Provider, VerificationStatus
from providers.ports import TrackRecord
from providers.selectors import provider_get_for_profile
from requests_app.selectors import answer_minutes_of

if TYPE_CHECKING:
    from accounts.models import User


# What a public review shows (bookings.api.serializers.PublicReviewSerializer): no ids of people.
PUBLIC_REVIEW_FIELDS = (
    "id",
    "rating",
    "comment",
    "created_at",
    "reviewer__first_name",
    "reviewer__last_name",
    "booking__service_request__category__name",
)


def provider_reviews_public(*, provider: Provider) -> QuerySet[Review]:
    """The public reviews of a provider, newest first (their profile page)."""
    return (
        Review.objects.filter(reviewed_id=provider.user_id, is_public=True)
        .select_related("reviewer", "booking__service_request__category")
        .only(*PUBLIC_REVIEW_FIELDS)
        .order_by("-created_at", "-id")
    )


# A helper's completion: of her last COMPLETION_VISITS visits over (completed, or handed on because
# she cancelled, was removed or was suspended), those she completed; shown from COMPLETION_MIN_VISITS
# (fewer: "New helper").
COMPLETION_VISITS = 25
COMPLETION_MIN_VISITS = 5


def track_records_of(provider_ids: list[int]) -> dict[int, TrackRecord]:
    """providers.ports.track_records: each helper's answer speed (requests_app's answer_minutes_of)
    and completion: her last COMPLETION_VISITS visits that are over, by their start, each either
    completed or one she left (a Replacement names her: she cancelled, was removed or suspended; a
    visit the family cancelled is not hers to keep). Two queries for any number of helpers; a
    helper with no answer and fewer than COMPLETION_MIN_VISITS visits is left out."""
    if not provider_ids:
        return {}
    newest = {"order_by": F("starts_at").desc()}
    completed = (
        Booking.objects.filter(provider_id__in=provider_ids, status=BookingStatus.COMPLETED)
        .annotate(nth=Window(RowNumber(), partition_by=[F("provider_id")], **newest))
        .filter(nth__lte=COMPLETION_VISITS)
    )
    left = (
        Replacement.objects.filter(left_provider_id__in=provider_ids)
        .annotate(
            starts_at=F("booking__starts_at"),
            nth=Window(RowNumber(), partition_by=[F("left_provider_id")], order_by=F("booking__starts_at").desc()),
        )
        .filter(nth__lte=COMPLETION_VISITS)
    )
    visits: dict[int, list[tuple[dt.datetime, bool]]] = {}
    kept, went = completed.annotate(kept=Value(True)).order_by(), left.annotate(kept=Value(False)).order_by()
    for provider_id, starts_at, was_kept in kept.values_list("provider_id", "starts_at", "kept").union(
        went.values_list("left_provider_id", "starts_at", "kept"), all=True
    ):
        visits.setdefault(provider_id, []).append((starts_at, was_kept))
    speed = answer_minutes_of(provider_ids)
    records = {}
    for pk in provider_ids:
        last = sorted(visits.get(pk, []), reverse=True)[:COMPLETION_VISITS]
        judged = len(last) >= COMPLETION_MIN_VISITS
        if pk in speed or judged:
            records[pk] = TrackRecord(
                answer_minutes=speed.get(pk),
                completed=sum(kept for _, kept in last) if judged else 0,
                visits=len(last) if judged else 0,
            )
    return records


PROFILE_REVIEWS = 10  # the newest public reviews a provider's profile page shows


def provider_profile(*, provider_id: int, viewer: User) -> Provider:
    """A provider's profile page as `viewer` may read it (who may: providers.selectors
    .provider_get_for_profile), with `visits_completed` (her completed visits), `track_record`
    (track_records_of, None when she has none yet) and `profile_reviews` (her newest public
    reviews) set on it."""
    provider = provider_get_for_profile(provider_id=provider_id, viewer=viewer)
    provider.visits_completed = Booking.objects.filter(provider=provider, status=BookingStatus.COMPLETED).count()
    provider.track_record = track_records_of([provider.pk]).get(provider.pk)
    provider.profile_reviews = list(provider_reviews_public(provider=provider)[:PROFILE_REVIEWS])
    return provider


FEATURED_REVIEW_MIN_RATING = 4


def reviews_featured(*, limit: int) -> list[Review]:
    """Real reviews for the landing page's "What Families Say", newest first: public, 4 stars or
    more, with words, by an open account, of a verified, active provider."""
    return list(
        Review.objects.filter(
            is_public=True,
            rating__gte=FEATURED_REVIEW_MIN_RATING,
            reviewer__is_active=True,
            reviewer__closed_at__isnull=True,
            booking__provider__verification_status=VerificationStatus.VERIFIED,
            booking__provider__is_active=True,
        )
        .exclude(comment="")
        .select_related("reviewer", "booking__service_request__category")
        .only(*PUBLIC_REVIEW_FIELDS)
        .order_by("-created_at", "-id")[:limit]
    )
