"""Reads of care recipients and circles, scoped to the user asking.

The other apps scope requests and bookings through `recipient_ids_of` (a subquery, so their
lists stay one query; `recipient_id_list` where the scope is ORed with another, which a subquery
would turn into a read of the whole table) and check organizer-only actions with `is_organizer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils.translation import gettext, gettext_lazy

from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole, InvitationStatus
from circles.tokens import invitation_check_open, invitation_from_token
from core.errors import Conflict, DomainError, NotFound
from core.geo import Point
from core.geocoding import PlaceStatus

if TYPE_CHECKING:
    from accounts.models import EmergencyContact, User


def recipient_ids_of(*, user_id: str) -> QuerySet[CircleMember]:
    """The ids of the recipients in whose circle the user is (any role), as a subquery."""
    return CircleMember.objects.filter(user_id=user_id).values("recipient_id")


def recipient_id_list(*, user_id: str) -> list[int]:
    """recipient_ids_of as values (one index read): for a scope ORed with another one, where
    PostgreSQL reads every row to test a subquery but ORs two index scans over values."""
    return list(CircleMember.objects.filter(user_id=user_id).values_list("recipient_id", flat=True))


def organized_recipient_ids(*, user_id: str) -> QuerySet[CircleMember]:
    """The ids of the recipients the user organizes, as a subquery."""
    return CircleMember.objects.filter(user_id=user_id, role=CircleRole.ORGANIZER).values("recipient_id")


def recipient_list_for(*, user: User) -> QuerySet[CareRecipient]:
    """The recipients in whose circle the user is, their own first."""
    return CareRecipient.objects.filter(members__user_id=user.pk).distinct().order_by("first_name", "last_name", "id")


def recipient_get(*, user: User, pk: object) -> CareRecipient:
    """A recipient in whose circle the user is; any other (or none) is a 404."""
    try:
        pk = int(pk)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Care recipient not found.")) from None
    recipient = recipient_list_for(user=user).filter(pk=pk).first()
    if recipient is None:
        raise NotFound(gettext("Care recipient not found."))
    return recipient


def is_organizer(*, user_id: str, recipient_id: int) -> bool:
    return CircleMember.objects.filter(user_id=user_id, recipient_id=recipient_id, role=CircleRole.ORGANIZER).exists()


def member_user_ids(*, recipient_id: int) -> list[str]:
    """Every member of the recipient's circle (for notifications and live events)."""
    return list(CircleMember.objects.filter(recipient_id=recipient_id).values_list("user_id", flat=True))


def care_circle_list(*, user: User) -> list[CareRecipient]:
    """The /care-circle page and GET /api/care-circle: the user's recipients with their members,
    the pending invitations (organizers only: `visible_invitations`), the emergency contacts and
    the user's own role (`my_role`). A fixed number of queries whatever the count."""
    from accounts.models import EmergencyContact

    recipients = list(
        recipient_list_for(user=user)
        .annotate(
            my_role=Subquery(
                CircleMember.objects.filter(recipient_id=OuterRef("pk"), user_id=user.pk).values("role")[:1]
            )
        )
        .prefetch_related(
            Prefetch("members", queryset=CircleMember.objects.select_related("user").order_by("created_at", "id")),
            Prefetch(
                "invitations",
                queryset=CircleInvitation.objects.filter(status=InvitationStatus.PENDING).order_by("-created_at"),
                to_attr="pending_invitations",
            ),
            Prefetch(
                "emergency_contacts",
                queryset=EmergencyContact.objects.order_by("-is_primary", "name", "pk"),
                to_attr="contacts",
            ),
        )
    )
    for recipient in recipients:
        organizer = recipient.my_role == CircleRole.ORGANIZER
        recipient.visible_invitations = recipient.pending_invitations if organizer else []
        for member in recipient.members.all():
            member.recipient = recipient  # isRecipient reads it: no query per member
    return recipients


def care_circle_get(*, user: User, pk: object) -> CareRecipient:
    """One recipient in the shape of care_circle_list (404 when the user is not in its circle)."""
    recipient = recipient_get(user=user, pk=pk)
    return next(r for r in care_circle_list(user=user) if r.pk == recipient.pk)


def invitation_for_page(*, token: str) -> tuple[CircleInvitation | None, str]:
    """The join page: the invitation a link names and "" when it can be used, else (it or None,
    the plain reason it cannot)."""
    try:
        invitation = invitation_from_token(token)
    except DomainError as error:
        return None, error.message
    try:
        invitation_check_open(invitation)
    except DomainError as error:
        return invitation, error.message
    return invitation, ""


def invitation_login_query(*, invitation: CircleInvitation | None, next_path: str) -> dict[str, str]:
    """The /login query the join page links to, signed out: back to `next_path` afterwards, the
    invited email filled in, and the sign-up card first when no account has that email yet (a
    new family member would otherwise face a sign-in card that can only fail for them)."""
    from accounts.models import User

    query = {"next": next_path}
    if invitation is not None:
        if not User.objects.filter(email__iexact=invitation.email).exists():
            query["mode"] = "signup"
        query["email"] = invitation.email
    return query


def emergency_contact_list_for(*, user: User, recipient_id: object = None) -> QuerySet[EmergencyContact]:
    """A recipient's contacts for a member of their circle (another recipient: 404), primary
    first; without a recipient, the user's own (and any from before care circles)."""
    from accounts.models import EmergencyContact

    if recipient_id is not None:
        scope = Q(recipient=recipient_get(user=user, pk=recipient_id))
    else:
        scope = Q(recipient__account_id=user.pk) | Q(user_id=user.pk, recipient__isnull=True)
    return EmergencyContact.objects.filter(scope).order_by("-is_primary", "name", "pk")


def emergency_contact_get_for(*, user: User, pk: object) -> EmergencyContact:
    """A contact of a recipient in whose circle the user is (anyone else's: 404)."""
    from accounts.models import EmergencyContact

    try:
        pk = int(pk)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Emergency contact not found.")) from None
    contact = (
        EmergencyContact.objects.filter(
            Q(recipient_id__in=recipient_ids_of(user_id=user.pk)) | Q(user_id=user.pk, recipient__isnull=True)
        )
        .filter(pk=pk)
        .first()
    )
    if contact is None:
        raise NotFound(gettext("Emergency contact not found."))
    return contact


def recipients_cared_for_by_others(*, user: User) -> set[int]:
    """The recipients in whose circle the user is together with someone else (an active account): their
    circle carries on if the user leaves."""
    mine = CircleMember.objects.filter(user_id=user.pk).values("recipient_id")
    return set(
        CircleMember.objects.filter(recipient_id__in=mine, user__is_active=True)
        .exclude(user_id=user.pk)
        .values_list("recipient_id", flat=True)
        .distinct()
    )


def recipients_to_place(*, before, limit: int = 500) -> list[int]:
    """Recipients whose address still waits to be placed, unchanged since `before` (beat's sweep)."""
    return list(
        CareRecipient.objects.filter(place_status=PlaceStatus.PENDING, updated_at__lt=before)
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )


# Why a recipient has no place to browse near (yet), in the words the /providers page shows.
PLACE_PENDING = gettext_lazy("We are still finding {name}'s address on the map. Please try again in a minute.")
PLACE_NOT_FOUND = gettext_lazy(
    "We could not find {name}'s address on the map. Please check it on the Care circle page."
)
PLACE_MISSING = gettext_lazy("Add {name}'s address on the Care circle page to see the helpers near them.")


def place_problem(recipient: CareRecipient) -> str:
    """Why helpers cannot be found near this recipient ("" when they can: the address is placed)."""
    if recipient.place_status == PlaceStatus.LOCATED and recipient.latitude is not None:
        return ""
    words = {PlaceStatus.PENDING: PLACE_PENDING, PlaceStatus.NOT_FOUND: PLACE_NOT_FOUND}
    return words.get(recipient.place_status, PLACE_MISSING).format(name=recipient.first_name)


def recipient_place_for(*, user: User, recipient_id: int) -> Point:
    """Where a recipient of the user's circles lives, to find helpers near them: another's (or
    none) is a 404, one not placed (yet) a 409 saying why. The point never leaves the server."""
    recipient = recipient_get(user=user, pk=recipient_id)
    problem = place_problem(recipient)
    if problem:
        raise Conflict(problem)
    return Point(recipient.latitude, recipient.longitude)


def near_choices(*, user: User) -> list[dict]:
    """The /providers page's "near whom?" choices: the recipients of the user's circles, their
    own first, with why helpers cannot be found near one (yet), if so."""
    if not user.is_authenticated:
        return []
    recipients = recipient_list_for(user=user).only(
        "id", "first_name", "last_name", "account_id", "latitude", "longitude", "place_status"
    )
    ordered = sorted(recipients, key=lambda r: r.account_id != user.pk)
    return [
        {
            "id": r.pk,
            "name": "Me" if r.account_id == user.pk else r.full_name,
            "firstName": r.first_name,
            "problem": place_problem(r),
        }
        for r in ordered
    ]
