"""Writes of care recipients and circles: every rule of who may change a circle lives here.

Who may do what: organizers edit the recipient, invite, change roles and
remove members; a member may leave; the recipient's own account can never be removed from
their circle; a circle keeps at least one organizer. A non-member gets 404 (NotFound), a
member doing an organizer's action 403 (PermissionDenied), a wrong state 409 (Conflict).
Every change locks the recipient row, so two organizers acting at once take turns and the
"at least one organizer" rule holds under races.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Case, When
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext
from django.utils.translation import gettext_lazy as _

from accounts.models import EmergencyContact
from circles.models import (
    CareRecipient,
    CircleInvitation,
    CircleMember,
    CircleRole,
    InvitationStatus,
)
from circles.notices import notice_send
from circles.tokens import invitation_check_open, invitation_from_token, invitation_token
from core import events
from core.addresses import PART_API_NAMES, PART_LABELS, PART_LIMITS, PART_NAMES, parse_one_line
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.geocoding import PlaceStatus, place_on_commit, place_record, zip_problem, zip_time_zone
from core.languages import Language
from core.notices import people as people_notices
from core.notices.people import InApp
from core.notifications import NoticeKind, notify
from core.validators import check_phone

if TYPE_CHECKING:
    from accounts.models import User

LAST_ORGANIZER_MESSAGE = gettext_lazy("A circle needs at least one organizer.")

# Field limits (the model's max_length; notes are free text but bounded).
# The address is kept in parts (core.addresses); the one-line "address" is still accepted
# and read into them, best effort.
LIMITS = {"first_name": 150, "last_name": 150, **PART_LIMITS, "phone": 40, "notes_for_helpers": 2000}
LABELS = {
    "first_name": "First name",
    "last_name": "Last name",
    **PART_LABELS,
    "phone": "Phone",
    "notes_for_helpers": "Notes for helpers",
}
API_NAMES = {
    "first_name": "firstName",
    "last_name": "lastName",
    **PART_API_NAMES,
    "phone": "phone",
    "notes_for_helpers": "notesForHelpers",
}
ADDRESS_MAX = 255
FIELD_TOO_LONG = "{label} can be at most {max} characters long."
FIRST_NAME_REQUIRED = gettext_lazy("Please enter a first name.")
LANGUAGE_INVALID = _("Choose English or Español.")
EMAIL_REQUIRED = gettext_lazy("Please enter an email address.")
EMAIL_INVALID = gettext_lazy("Please enter a valid email address, like name@example.com.")
ROLE_INVALID = gettext_lazy("Choose organizer or member.")


# ---------------------------------------------------------------- small checks


def _client_only(user: User) -> None:
    from accounts.models import UserType

    if user.user_type != UserType.CLIENT:
        raise PermissionDenied(gettext("Care circles are for family (client) accounts."))


def _lock_recipient(*, user: User, recipient_id: object) -> tuple[CareRecipient, CircleMember]:
    """The recipient row, locked, and the actor's membership; NotFound when they are not in its circle.

    Caller is inside transaction.atomic()."""
    try:
        pk = int(recipient_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Care recipient not found.")) from None
    recipient = CareRecipient.objects.select_for_update().filter(pk=pk).first()
    membership = (
        CircleMember.objects.filter(recipient_id=pk, user_id=user.pk).first() if recipient is not None else None
    )
    if recipient is None or membership is None:
        raise NotFound(gettext("Care recipient not found."))
    return recipient, membership


def _organizer_only(membership: CircleMember, action: str) -> None:
    if membership.role != CircleRole.ORGANIZER:
        raise PermissionDenied(gettext("Only an organizer of this circle can %(action)s.") % {"action": action})


def _clean_fields(fields: dict[str, Any], *, creating: bool) -> dict[str, str]:
    """Trimmed text fields; InvalidInput naming each field that breaks a rule (API names). A one-line
    "address" is read into the parts unless parts are given too (they win)."""
    cleaned: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    fields = dict(fields)
    if "language" in fields:
        language = fields.pop("language")
        if language in Language.values:
            cleaned["language"] = str(language)
        else:
            errors["language"] = [LANGUAGE_INVALID]
    if "address" in fields:
        text = "" if fields["address"] is None else str(fields.pop("address"))
        if len(text.strip()) > ADDRESS_MAX:
            errors["address"] = [gettext("Address can be at most %(count)s characters long.") % {"count": ADDRESS_MAX}]
        elif not any(fields.get(name) for name in PART_NAMES):
            fields.update(parse_one_line(text).as_dict())
    for name, value in fields.items():
        if name not in LIMITS:
            errors.setdefault(API_NAMES.get(name, name), []).append(gettext("Unknown field."))
            continue
        text = "" if value is None else str(value).strip()
        if len(text) > LIMITS[name]:
            errors.setdefault(API_NAMES[name], []).append(FIELD_TOO_LONG.format(label=LABELS[name], max=LIMITS[name]))
        cleaned[name] = text
    if (creating or "first_name" in fields) and not cleaned.get("first_name"):
        errors.setdefault("firstName", []).append(FIRST_NAME_REQUIRED)
    if cleaned.get("zip_code") and "zipCode" not in errors:
        problem = zip_problem(cleaned["zip_code"], required=False)
        if problem:
            errors["zipCode"] = [problem]
    InvalidInput.check(errors)
    return cleaned


def address_moved(recipient: CareRecipient) -> list[str]:
    """The address changed (the caller saves it, in a transaction): the old place is forgotten and
    the new one asked for after the commit (circles.tasks.place_recipient). An address that cannot
    be placed is still saved, "not found", flagged for staff. Her time zone follows the ZIP code
    (core.geocoding.zip_time_zone), her visits ahead with it. Returns the fields it set."""
    from circles.tasks import place_recipient

    has_address = any(getattr(recipient, name) for name in PART_NAMES)
    recipient.latitude = recipient.longitude = None
    recipient.place_status = PlaceStatus.PENDING if has_address else PlaceStatus.NO_ADDRESS
    if has_address and recipient.pk is not None:
        place_on_commit(place_recipient, recipient.pk)
    moved = ["latitude", "longitude", "place_status"]
    # Her clock is her ZIP code's (a ZIP the list does not know keeps the zone she had): her visits
    # ahead move with it, with this change (a Conflict when a helper's two visits would overlap).
    zone = zip_time_zone(recipient.zip_code)
    if zone and zone != recipient.time_zone:
        if recipient.pk is not None:
            events.publish(events.RecipientTimeZoneChanged(recipient_id=recipient.pk, time_zone=zone))
        recipient.time_zone = zone
        moved.append("time_zone")
    return moved


def _normalize_email(raw: object) -> str:
    email = ("" if raw is None else str(raw)).strip()
    if not email:
        raise InvalidInput(EMAIL_REQUIRED, errors={"email": [EMAIL_REQUIRED]})
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidInput(EMAIL_INVALID, errors={"email": [EMAIL_INVALID]}) from None
    local, _, domain = email.rpartition("@")
    return f"{local}@{domain.lower()}"


def _check_role(role: object) -> str:
    if role not in CircleRole.values:
        raise InvalidInput(ROLE_INVALID, errors={"role": [ROLE_INVALID]})
    return str(role)


def _organizer_count(recipient_id: int) -> int:
    return CircleMember.objects.filter(recipient_id=recipient_id, role=CircleRole.ORGANIZER).count()


# ---------------------------------------------------------------- recipients


def recipient_for_self(*, user: User) -> CareRecipient:
    """The user's own recipient (they receive the help themself), created with its circle (the
    user as organizer) the first time it is needed. Safe under concurrent calls."""
    existing = CareRecipient.objects.filter(account_id=user.pk).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            recipient = CareRecipient.objects.create(
                first_name=user.first_name or user.email.split("@")[0],
                last_name=user.last_name,
                language=user.language,
                account=user,
            )
            CircleMember.objects.create(recipient=recipient, user=user, role=CircleRole.ORGANIZER)
    except IntegrityError:
        return CareRecipient.objects.get(account_id=user.pk)
    return recipient


def recipient_create(
    *,
    actor: User,
    first_name: str,
    last_name: str = "",
    address: str = "",
    phone: str = "",
    notes_for_helpers: str = "",
    is_self: bool = False,
    language: str = "",
    **parts: str,
) -> CareRecipient:
    """Add someone the actor cares for (or the actor themself, is_self); the actor organizes their circle.
    Her language is the actor's unless given.

    Client accounts only. A second "myself" is refused (409): each account is one recipient at most.
    """
    _client_only(actor)
    fields = _clean_fields(
        {
            "first_name": first_name,
            "last_name": last_name,
            "address": address,
            **parts,
            "phone": phone,
            "notes_for_helpers": notes_for_helpers,
            "language": language or actor.language,
        },
        creating=True,
    )
    with transaction.atomic():
        if is_self:
            if CareRecipient.objects.filter(account_id=actor.pk).exists():
                raise Conflict(gettext("You are already in your own care circle."))
            try:
                with transaction.atomic():
                    recipient = CareRecipient.objects.create(account=actor, **fields)
            except IntegrityError:
                raise Conflict(gettext("You are already in your own care circle.")) from None
        else:
            recipient = CareRecipient.objects.create(**fields)
        recipient.save(update_fields=address_moved(recipient))
        CircleMember.objects.create(recipient=recipient, user=actor, role=CircleRole.ORGANIZER)
    return recipient


def recipient_update(*, actor: User, recipient_id: object, **changes: Any) -> CareRecipient:
    """Change some of first_name, last_name, the address (its parts, or the one-line address), phone,
    notes_for_helpers, language (organizers only)."""
    fields = _clean_fields(changes, creating=False)
    with transaction.atomic():
        recipient, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        _organizer_only(membership, pgettext("circle action", "change these details"))
        changed = [name for name, value in fields.items() if getattr(recipient, name) != value]
        for name in changed:
            setattr(recipient, name, fields[name])
        if set(changed) & set(PART_NAMES):
            changed += address_moved(recipient)
        if changed:
            recipient.save(update_fields=[*changed, "updated_at"])
    return recipient


def recipient_place(*, recipient_id: int):
    """Place the recipient's address (Celery: circles.tasks.place_recipient; never in a transaction)."""
    return place_record(CareRecipient, recipient_id, address_of=lambda recipient: recipient.address_parts)


# ---------------------------------------------------------------- invitations


def invitation_path(invitation: CircleInvitation) -> str:
    return f"/care-circle/join/{invitation_token(invitation)}"


def invitation_facts(invitation: CircleInvitation) -> dict[str, str]:
    """What an invitation's words say (core.notices.people.invitation_words): who invites, and
    whose circle it is. The senior inviting to her own circle is not named twice ("Clara Senior
    invites you to join their care circle"); someone else asks you to help care for the senior."""
    recipient, inviter = invitation.recipient, invitation.invited_by
    own = ""
    if invitation.for_recipient:
        own = "recipient"
    elif inviter is not None and recipient.account_id == inviter.pk:
        own = "inviter"
    return {
        "who": (inviter.full_name or inviter.email) if inviter else "A family member",
        "own": own,
        "first_name": recipient.first_name,
        "full_name": recipient.full_name,
    }


def invitation_words(invitation: CircleInvitation) -> tuple[str, str]:
    """(subject, sentence) saying who invites whom, for the email and the join page alike."""
    return people_notices.invitation_words(invitation_facts(invitation))


def invitation_create(
    *,
    actor: User,
    recipient_id: object,
    email: str,
    role: str = CircleRole.MEMBER,
    for_recipient: bool = False,
    language: str = "",
) -> CircleInvitation:
    """Invite an email address to the circle (organizers only); the email goes out once committed.

    An address already in the circle is refused (400). Inviting a pending address again with the
    same role renews its invitation (a fresh 7 days, a new email; the earlier link keeps working
    until its own 7 days are over). With another role (or now for the recipient themself) it is a
    new invitation with a new link, and the earlier one is withdrawn: a forwarded "member" email
    must never become an organizer's link. `language`: the email's, for an address with no account
    yet ("" : the inviter's)."""
    email = _normalize_email(email)
    role = _check_role(role)
    if language not in ("", *Language.values):
        message = gettext("Choose English or Español.")
        raise InvalidInput(message, errors={"language": [message]})
    with transaction.atomic():
        recipient, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        _organizer_only(membership, pgettext("circle action", "invite people"))
        if CircleMember.objects.filter(recipient=recipient, user__email__iexact=email).exists():
            message = gettext("%(email)s is already in this care circle.") % {"email": email}
            raise InvalidInput(message, errors={"email": [message]})
        if for_recipient and recipient.account_id is not None:
            message = gettext("%(name)s already has their own account in this circle.") % {"name": recipient.full_name}
            raise InvalidInput(message, errors={"forRecipient": [message]})
        invitation = (
            CircleInvitation.objects.select_for_update()
            .filter(recipient=recipient, email__iexact=email, status=InvitationStatus.PENDING)
            .first()
        )
        if invitation is not None and (invitation.role, invitation.for_recipient) != (role, for_recipient):
            # What a link grants never changes after it is sent: the old link stops working.
            invitation.status = InvitationStatus.REVOKED
            invitation.responded_at = timezone.now()
            invitation.save(update_fields=["status", "responded_at"])
            invitation = None
        if invitation is None:
            invitation = CircleInvitation.objects.create(
                recipient=recipient,
                email=email,
                role=role,
                invited_by=actor,
                for_recipient=for_recipient,
                language=language,
            )
        else:
            invitation.invited_by = actor
            invitation.created_at = timezone.now()
            invitation.language = language
            invitation.save(update_fields=["invited_by", "created_at", "language"])
        events.publish(events.CircleInvitationSent(invitation_id=invitation.pk))
    return invitation


def invitation_revoke(*, actor: User, invitation_id: object) -> CircleInvitation:
    """Withdraw a pending invitation (organizers only); one that was used or withdrawn is a 409."""
    try:
        pk = int(invitation_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Invitation not found.")) from None
    recipient_id = CircleInvitation.objects.filter(pk=pk).values_list("recipient_id", flat=True).first()
    if recipient_id is None:
        raise NotFound(gettext("Invitation not found."))
    with transaction.atomic():
        try:
            _, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        except NotFound:
            raise NotFound(gettext("Invitation not found.")) from None
        _organizer_only(membership, pgettext("circle action", "withdraw invitations"))
        invitation = CircleInvitation.objects.select_for_update().get(pk=pk)
        if invitation.status != InvitationStatus.PENDING:
            raise Conflict(
                gettext("This invitation was already used.")
                if invitation.status == InvitationStatus.ACCEPTED
                else gettext("This invitation was already withdrawn.")
            )
        invitation.status = InvitationStatus.REVOKED
        invitation.responded_at = timezone.now()
        invitation.save(update_fields=["status", "responded_at"])
    return invitation


def invitation_accept(*, user: User, token: str) -> CircleMember:
    """Join the circle an invitation link names, with its role; the link works once.

    The signed-in account's email need not be the invited address: the link was sent to that
    address, and whoever holds it may join with the account they use (a family member often
    signs in with another address than the one the organizer knew). Someone already in the
    circle keeps their membership (an organizer invitation makes them an organizer).
    """
    _client_only(user)
    invitation = invitation_from_token(token)
    with transaction.atomic():
        CareRecipient.objects.select_for_update().filter(pk=invitation.recipient_id).values_list("pk").first()
        invitation = CircleInvitation.objects.select_for_update().select_related("recipient").get(pk=invitation.pk)
        invitation_check_open(invitation)
        if invitation.for_recipient:
            _link_recipient_account(invitation.recipient, user)
        member = CircleMember.objects.filter(recipient_id=invitation.recipient_id, user_id=user.pk).first()
        joined = member is None
        if member is None:
            member = CircleMember.objects.create(recipient=invitation.recipient, user=user, role=invitation.role)
        elif invitation.role == CircleRole.ORGANIZER and member.role != CircleRole.ORGANIZER:
            member.role = CircleRole.ORGANIZER
            member.save(update_fields=["role"])
        invitation.status = InvitationStatus.ACCEPTED
        invitation.accepted_by = user
        invitation.responded_at = timezone.now()
        invitation.save(update_fields=["status", "accepted_by", "responded_at"])
        if joined:
            _tell_organizers_of_join(invitation.recipient, user, member.role)
    return member


def _link_recipient_account(recipient: CareRecipient, user: User) -> None:
    """The recipient signs in with this account from now on (caller holds the recipient's lock)."""
    if recipient.account_id == user.pk:
        return
    if recipient.account_id is not None:
        raise Conflict(
            gettext("%(name)s already has their own account in this circle.") % {"name": recipient.full_name}
        )
    if CareRecipient.objects.filter(account_id=user.pk).exists():
        raise Conflict(
            gettext(
                "Your account is already the person cared for in another care circle. Ask the organizer to invite you "
                "as a member instead."
            )
        )
    recipient.account = user
    recipient.save(update_fields=["account", "updated_at"])


def _tell_organizers_of_join(recipient: CareRecipient, user: User, role: str) -> None:
    # Who joined is not told of their own joining (they may be an organizer too).
    notice_send(
        NoticeKind.CIRCLE_JOINED,
        recipient_id=recipient.pk,
        skip=[user],
        key=f"recipient:{recipient.pk}:user:{user.pk}:{timezone.now().isoformat()}",
        facts={
            "name": user.full_name or user.email,
            "recipient": recipient.full_name,
            "role": CircleRole(role).label.lower(),
        },
    )


# ---------------------------------------------------------------- members


def _member_of(recipient: CareRecipient, member_id: object) -> CircleMember:
    try:
        pk = int(member_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Member not found.")) from None
    member = CircleMember.objects.select_related("user").filter(pk=pk, recipient=recipient).first()
    if member is None:
        raise NotFound(gettext("Member not found."))
    return member


def member_set_role(*, actor: User, recipient_id: object, member_id: object, role: str) -> CircleMember:
    """Make a member an organizer or a member (organizers only); the last organizer stays one (409)."""
    role = _check_role(role)
    with transaction.atomic():
        recipient, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        _organizer_only(membership, pgettext("circle action", "change roles"))
        member = _member_of(recipient, member_id)
        if member.role == role:
            return member
        if member.role == CircleRole.ORGANIZER and _organizer_count(recipient.pk) <= 1:
            raise Conflict(LAST_ORGANIZER_MESSAGE)
        member.role = role
        member.save(update_fields=["role"])
    return member


def member_remove(*, actor: User, recipient_id: object, member_id: object) -> None:
    """Remove someone from the circle (organizers), or leave it (anyone, themself).

    The recipient's own account is never removed; the last organizer cannot leave (409). Once
    committed, the CircleMemberRemoved event tells the apps above (their live events stop)."""
    with transaction.atomic():
        recipient, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        member = _member_of(recipient, member_id)
        leaving = member.pk == membership.pk
        if not leaving:
            _organizer_only(membership, pgettext("circle action", "remove people"))
        if recipient.account_id is not None and member.user_id == recipient.account_id:
            raise Conflict(
                gettext("%(name)s is the person this circle cares for and always stays in it.")
                % {"name": recipient.full_name}
            )
        if member.role == CircleRole.ORGANIZER and _organizer_count(recipient.pk) <= 1:
            raise Conflict(LAST_ORGANIZER_MESSAGE)
        user_id = member.user_id
        member.delete()
        events.publish(events.CircleMemberRemoved(recipient_id=recipient.pk, user_id=user_id))


def circles_leave_on_account_closure(*, user: User) -> set[int]:
    """The user closes their account: they leave every circle. Where they were the last organizer and
    others remain, the longest-standing other member (the recipient themself first) becomes organizer
    and is told, so the circle always has one. Returns the recipients whose circle carries on without
    them (circles.selectors.recipients_cared_for_by_others said which, before). Caller is inside
    transaction.atomic()."""
    carries_on: set[int] = set()
    memberships = CircleMember.objects.select_for_update().filter(user=user).select_related("recipient")
    for membership in memberships.order_by("recipient_id"):
        recipient = CareRecipient.objects.select_for_update().get(pk=membership.recipient_id)
        others = CircleMember.objects.filter(recipient=recipient, user__is_active=True).exclude(user=user)
        if not others.exists():
            continue  # nobody left to care: the caller cancels what is booked for them
        carries_on.add(recipient.pk)
        if not others.filter(role=CircleRole.ORGANIZER).exists():
            heir = others.order_by(
                Case(When(user_id=recipient.account_id, then=0), default=1), "created_at", "id"
            ).first()
            heir.role = CircleRole.ORGANIZER
            heir.save(update_fields=["role"])
            notify(
                receivers=[heir.user],
                notice=InApp.NOW_ORGANIZER,
                facts={"closer": user.full_name or "An organizer", "recipient": recipient.full_name},
            )
        membership.delete()
        events.publish(events.CircleMemberRemoved(recipient_id=recipient.pk, user_id=user.pk))
    return carries_on


# ---------------------------------------------------------------- emergency contacts

CONTACT_FIELDS = ("name", "relationship", "phone", "email", "is_primary")


def _unset_other_primary(recipient_id: int, keep_pk: int | None) -> None:
    EmergencyContact.objects.filter(recipient_id=recipient_id, is_primary=True).exclude(pk=keep_pk).update(
        is_primary=False
    )


def _lock_contact(*, actor: User, contact_id: object) -> EmergencyContact:
    """The contact, locked with its recipient, for an organizer of its circle (a member: 403;
    anyone else: 404). A contact from before care circles (no recipient) moves onto its owner's
    own recipient first. Caller is inside transaction.atomic()."""
    try:
        pk = int(contact_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Emergency contact not found.")) from None
    found = EmergencyContact.objects.filter(pk=pk).values("recipient_id", "user_id").first()
    if found is None or (found["recipient_id"] is None and found["user_id"] != actor.pk):
        raise NotFound(gettext("Emergency contact not found."))
    recipient_id = found["recipient_id"]
    if recipient_id is None:
        recipient_id = recipient_for_self(user=actor).pk
        EmergencyContact.objects.filter(pk=pk, recipient__isnull=True).update(recipient_id=recipient_id)
    try:
        _, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
    except NotFound:
        raise NotFound(gettext("Emergency contact not found.")) from None
    _organizer_only(membership, pgettext("circle action", "change emergency contacts"))
    return EmergencyContact.objects.select_for_update().get(pk=pk)


def emergency_contact_create(
    *,
    actor: User,
    name: str,
    phone: str,
    recipient_id: object = None,
    relationship: str = "",
    email: str = "",
    is_primary: bool = False,
) -> EmergencyContact:
    """Add a contact for a recipient (default: the actor's own, created when first needed);
    organizers only. A new primary contact takes over from the recipient's old one."""
    phone = check_phone(phone)
    if recipient_id is None:
        recipient_id = recipient_for_self(user=actor).pk
    with transaction.atomic():
        recipient, membership = _lock_recipient(user=actor, recipient_id=recipient_id)
        _organizer_only(membership, pgettext("circle action", "change emergency contacts"))
        if is_primary:
            _unset_other_primary(recipient.pk, None)
        return EmergencyContact.objects.create(
            user=actor,
            recipient=recipient,
            name=name,
            phone=phone,
            relationship=relationship,
            email=email,
            is_primary=is_primary,
        )


def emergency_contact_update(*, actor: User, contact_id: object, **fields: Any) -> EmergencyContact:
    """Change some of name, relationship, phone, email, is_primary (organizers of its recipient)."""
    unknown = set(fields) - set(CONTACT_FIELDS)
    if unknown:
        raise InvalidInput(errors={name: [gettext("Unknown field.")] for name in sorted(unknown)})
    if "phone" in fields:
        fields["phone"] = check_phone(fields["phone"])
    with transaction.atomic():
        contact = _lock_contact(actor=actor, contact_id=contact_id)
        if fields.get("is_primary"):
            _unset_other_primary(contact.recipient_id, contact.pk)
        changed = [name for name, value in fields.items() if getattr(contact, name) != value]
        for name in changed:
            setattr(contact, name, fields[name])
        if changed:
            contact.save(update_fields=changed)
        return contact


def emergency_contact_delete(*, actor: User, contact_id: object) -> None:
    with transaction.atomic():
        _lock_contact(actor=actor, contact_id=contact_id).delete()
