"""What the request form starts from: the recipients a user may request for (with the address the
location fields start from), and the request of a booking to book again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from circles.models import CareRecipient
from circles.selectors import organized_recipient_ids
from core.addresses import PART_API_NAMES, PART_NAMES, full_line
from requests_app import ports
from requests_app.models import ServiceRequest
from requests_app.selectors.lists import in_circles_of

if TYPE_CHECKING:
    from accounts.models import User


def recipients_to_request_for(*, user: User) -> list[dict]:
    """The request form's "Who is this for?" options: every recipient the user organizes (their own
    first, as "Myself"), each with the address the location fields start from (one line and in
    parts); plus "Myself" with id None when the user has no recipient of their own yet (posting
    makes it)."""
    rows = list(
        CareRecipient.objects.filter(pk__in=organized_recipient_ids(user_id=user.pk))
        .order_by("first_name", "last_name", "id")
        .values("id", "first_name", "last_name", *PART_NAMES, "account_id")
    )
    options = [
        {
            "id": row["id"],
            "firstName": row["first_name"],
            "lastName": row["last_name"],
            "address": full_line(*(row[name] for name in PART_NAMES)),
            "addressParts": {PART_API_NAMES[name]: row[name] for name in PART_NAMES},
            "isSelf": row["account_id"] == user.pk,
        }
        for row in rows
    ]
    options.sort(key=lambda option: not option["isSelf"])
    if not any(option["isSelf"] for option in options):
        options.insert(
            0,
            {
                "id": None,
                "firstName": user.first_name,
                "lastName": user.last_name,
                "address": "",
                "addressParts": {PART_API_NAMES[name]: "" for name in PART_NAMES},
                "isSelf": True,
            },
        )
    return options


def service_request_to_rebook(*, user: User, booking_id: int) -> ServiceRequest | None:
    """The request of a booking in one of the user's circles ("Book again"): what the new
    request starts from. None for anyone else's booking (the plain form)."""
    return (
        ServiceRequest.objects.filter(in_circles_of(user.pk), pk=ports.request_of_booking(booking_id))
        .select_related("category")
        .first()
    )
