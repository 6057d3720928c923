"""The visit record: a recipient's visits of one month for the organizers' export, and staff's
share of visits verified at the home, by helper."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from bookings.models import Booking, BookingStatus, VisitTaskOutcome
from circles.selectors import is_organizer, recipient_get
from core.errors import InvalidInput, PermissionDenied

if TYPE_CHECKING:
    from accounts.models import User
    from circles.models import CareRecipient


VISIT_RECORD_ORGANIZERS_ONLY = gettext_lazy("Only an organizer of this care circle can export its visit record.")
VISIT_RECORD_MONTH = gettext_lazy("Choose a month as YYYY-MM, for example 2026-11.")


def visit_record_month(*, user: User, recipient_id: object, month: str) -> tuple[CareRecipient, list[Booking]]:
    """A recipient's visits of one month (by the visit's date), for the organizers' export: the
    visits that happened or were booked (confirmed, completed), with their task outcomes. 404 for
    someone outside the circle, 403 for a plain member, 400 for a month not read."""
    recipient = recipient_get(user=user, pk=recipient_id)
    if not is_organizer(user_id=user.pk, recipient_id=recipient.pk):
        raise PermissionDenied(VISIT_RECORD_ORGANIZERS_ONLY)
    try:
        first = dt.datetime.strptime(month or "", "%Y-%m").date()
    except ValueError:
        raise InvalidInput(VISIT_RECORD_MONTH, errors={"month": [VISIT_RECORD_MONTH]}) from None
    after = (first + dt.timedelta(days=32)).replace(day=1)
    visits = list(
        Booking.objects.filter(
            recipient_id=recipient.pk,
            scheduled_date__gte=first,
            scheduled_date__lt=after,
            status__in=[BookingStatus.CONFIRMED, BookingStatus.COMPLETED],
        )
        .select_related("provider__user", "service_request__category")
        .prefetch_related(Prefetch("task_outcomes", queryset=VisitTaskOutcome.objects.order_by("position")))
        .order_by("starts_at", "id")
    )
    return recipient, visits


VERIFIED_SHARE_DAYS = 90


def verified_share_by_helper(*, now: dt.datetime | None = None) -> list[dict]:
    """Staff's view of the visit record: per helper, her checked-in visits of the last 90 days and
    how many were checked in at the home (verified; "not compared" visits are counted apart),
    the lowest share first."""
    since = (now or timezone.now()) - dt.timedelta(days=VERIFIED_SHARE_DAYS)
    rows = (
        Booking.objects.filter(checked_in_at__gte=since)
        .values("provider_id", "provider__user__first_name", "provider__user__last_name")
        .annotate(
            visits=Count("id"),
            verified=Count("id", filter=Q(check_in_verified=True)),
            unverified=Count("id", filter=Q(check_in_verified=False)),
        )
        .order_by("provider_id")
    )
    out = []
    for row in rows:
        compared = row["verified"] + row["unverified"]
        out.append(
            {
                "providerId": row["provider_id"],
                "name": f"{row['provider__user__first_name']} {row['provider__user__last_name']}".strip(),
                "visits": row["visits"],
                "verified": row["verified"],
                "unverified": row["unverified"],
                "share": round(row["verified"] / compared, 3) if compared else None,
            }
        )
    return sorted(out, key=lambda r: (r["share"] is None, r["share"] or 0, r["name"]))
