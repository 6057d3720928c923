"""Reads of provider profiles, scoped to what the caller may see.

Public listings show only verified, active providers and never email or phone.
Used by the API and by pages (landing: provider_list_public(...)[:3]).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.db.models import F, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast, Concat

from accounts.models import UserType
from marketplace.errors import NotFound
from providers.models import Provider, Specialty, VerificationStatus

if TYPE_CHECKING:
    from accounts.models import User


def specialty_options() -> list[dict[str, str]]:
    """The six services as {id, name}, for forms and filters."""
    return [{"id": value, "name": label} for value, label in Specialty.choices]


SORTS = {
    "rating": [F("rating").desc(), F("total_reviews").desc(), "id"],
    "reviews": [F("total_reviews").desc(), F("rating").desc(), "id"],
    "rate-low": [F("hourly_rate").asc(nulls_last=True), F("rating").desc(), "id"],
    "rate-high": [F("hourly_rate").desc(nulls_last=True), F("rating").desc(), "id"],
}
DEFAULT_SORT = "rating"


def _public() -> QuerySet[Provider]:
    return Provider.objects.filter(verification_status=VerificationStatus.VERIFIED, is_active=True)


def provider_list_public(*, search: str = "", specialty: str = "", sort: str = DEFAULT_SORT) -> QuerySet[Provider]:
    """Verified, active providers for the browse and landing pages.

    search: case-insensitive over bio, service area and specialties (ids, and the names of the
    services, so "technology" finds tech-support). specialty: one of the six ids. sort: rating
    (default), reviews, rate-low, rate-high. All done in the database.
    """
    qs = _public().select_related("user")
    search = search.strip()
    if search or specialty:
        qs = qs.annotate(specialties_text=Cast("specialties", output_field=TextField()))
    if search:
        qs = qs.filter(Q(bio__icontains=search) | Q(service_area__icontains=search) | _specialty_matches(search))
    if specialty:
        qs = qs.filter(_has_specialty(specialty))
    return qs.order_by(*SORTS.get(sort, SORTS[DEFAULT_SORT]))


def _specialty_matches(search: str) -> Q:
    """The specialties' ids or service names hold the text ("technology" finds tech-support);
    needs the specialties_text annotation."""
    match = Q(specialties_text__icontains=search)
    for value, label in Specialty.choices:
        if search.lower() in label.lower():
            match |= _has_specialty(value)
    return match


def _has_specialty(value: str) -> Q:
    """The provider's specialties (a JSON list of ids) hold this id; needs the specialties_text annotation.

    JSONField's `contains` lookup exists on PostgreSQL only (SQLite, the embedded default, answers
    NotSupportedError), so the list is matched on its JSON text, where each id stands in double
    quotes: '"tech-support"' matches that element and never a part of another one. The ids are
    plain ASCII slugs, written the same way by both databases.
    """
    return Q(specialties_text__contains=json.dumps(value))


def provider_get_public(*, provider_id: int) -> Provider:
    provider = _public().select_related("user").filter(pk=provider_id).first()
    if provider is None:
        raise NotFound("Provider not found.")
    return provider


def provider_for_user(*, user: User) -> Provider | None:
    if not user.is_authenticated:
        return None
    return Provider.objects.select_related("user").filter(user=user).first()


def provider_get_own(*, user: User) -> Provider:
    """The signed-in user's own profile; none yet is a 404."""
    provider = provider_for_user(user=user)
    if provider is None:
        raise NotFound("You do not have a provider profile yet.")
    return provider


def user_acts_as_provider(*, user: User) -> bool:
    """A provider account, or anyone with a provider profile: they may try to accept (and are
    told why not). Seeing open requests takes more: user_is_vetted_provider."""
    if not user.is_authenticated:
        return False
    return user.user_type == UserType.PROVIDER or Provider.objects.filter(user=user).exists()


def provider_vetted(*, user_id: str) -> QuerySet[Provider]:
    """The user's profile if it is verified and active (a queryset, for Exists() in other lists)."""
    return _public().filter(user_id=user_id)


def user_is_vetted_provider(*, user: User) -> bool:
    """A verified, active provider profile: only they see open requests (ARCHITECTURE.md)."""
    if not user.is_authenticated:
        return False
    return provider_vetted(user_id=user.pk).exists()


def provider_standing(*, user: User) -> str:
    """Where the user stands as a provider, for the pages: "none" (no profile), "pending",
    "rejected", "verified" (and active) or "inactive" (verified, switched off)."""
    provider = Provider.objects.filter(user=user).only("verification_status", "is_active").first()
    if provider is None:
        return "none"
    if provider.verification_status == VerificationStatus.VERIFIED and not provider.is_active:
        return "inactive"
    return str(provider.verification_status)


def provider_list_admin(*, status: str = "", search: str = "") -> QuerySet[Provider]:
    """Every provider, newest first (admin dashboard).

    search: case-insensitive over first name, last name, the full name, email and specialties
    (ids and service names), as the spec's admin search box says. All done in the database.
    """
    qs = Provider.objects.select_related("user").order_by("-created_at", "-id")
    if status:
        qs = qs.filter(verification_status=status)
    search = search.strip()
    if search:
        qs = qs.annotate(
            specialties_text=Cast("specialties", output_field=TextField()),
            full_name=Concat("user__first_name", Value(" "), "user__last_name"),
        ).filter(
            Q(user__first_name__icontains=search)
            | Q(user__last_name__icontains=search)
            | Q(full_name__icontains=search)
            | Q(user__email__icontains=search)
            | _specialty_matches(search)
        )
    return qs
