"""The dashboard: the page ("/" signed in, and /dashboard) and GET /api/dashboard.

The page renders the island's first data into its props (first 3 bookings and requests, the
provider's tile counts, the unread count), so the island paints without calling the API. Later
refreshes (after a cancel, a completed visit, a booking.updated event) ask GET /api/dashboard for
the same shape: DashboardSerializer, over the API's own booking and request serializers.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import UserType
from bookings.api.serializers import (
    BookingSerializer,
    ReplacementOfferSerializer,
    can_cancel_max_age,
    report_window_max_age,
    visits_max_age,
)
from bookings.models import Review
from bookings.selectors import (
    booking_counts_as_provider,
    booking_list_as_items,
    client_side_counts,
    replacement_offers_for,
)
from circles.selectors import recipient_ids_of, recipient_list_for
from core.errors import InvalidInput
from core.listcache import Read, cached_all
from messaging.selectors import unread_summary_read
from payments.selectors import payout_card
from providers.selectors import provider_standing
from requests_app.api.serializers import (
    RecipientSummarySerializer,
    ServiceRequestSerializer,
    direct_window_max_age,
)
from requests_app.selectors import service_request_list_shown

PROVIDER_SUBTITLE = gettext_lazy("Manage your services and help seniors in your community")
CLIENT_SUBTITLE = gettext_lazy("Your trusted home support dashboard")
LIST_LIMIT = 3  # spec section 9: at most 3 bookings, 3 requests, 3 available requests
VIEWS = ("provider", "client")


class ProviderTilesSerializer(serializers.Serializer):
    """Today's Schedule (the provider's visits of the day, site time zone, scheduled or confirmed)
    and Completed (all the visits she completed)."""

    today = serializers.IntegerField(read_only=True)
    completed = serializers.IntegerField(read_only=True)


class ClientSideSerializer(serializers.Serializer):
    """In the helper view of someone who is also a client: her client side, so that it never
    seems gone ("You also have 1 booking as a client"). bookings: still to come; unpaid: of them,
    waiting for her payment; requests: hers still open."""

    bookings = serializers.IntegerField(read_only=True)
    unpaid = serializers.IntegerField(read_only=True)
    requests = serializers.IntegerField(read_only=True)


class DashboardSerializer(serializers.Serializer):
    """What the dashboard shows: needs context["request"] (the viewer, as for the lists' API).

    view: which side of the viewer the dashboard shows ("provider": the helper view, "client");
    views: the sides they may switch between (?view=): someone who is both a client and a helper
    keeps both. clientSide: in the helper view, what the viewer has as a client (null when nothing,
    and in the client view).
    bookings: the first 3 of the viewer's bookings in the view (the helper view: the visits she
    has to come, bookings.selectors.provider_to_come; the client view: the visits booked in her
    circles), in GET /api/bookings's order; a series of visits counts as one, with all
    its visits listed (the card groups them by booking.series). requests: the first 3 of GET
    /api/service-requests for the view (helper: open requests of others, none unless verified;
    client: the requests for the recipients in their circles). tiles: the helper view's counts
    (null in the client view). unread: the unread messages count. recipients: the people in
    whose care circles the viewer is (the switcher, shown when there are two or more; empty in
    the helper view); recipientId: the one the lists are narrowed to (null: all of them).
    replacementOffers: in a verified helper's view, the visits whose helper left offered to her
    (GET /api/replacement-offers), painted with the page; empty otherwise.
    """

    view = serializers.ChoiceField(VIEWS, read_only=True)
    views = serializers.ListField(child=serializers.ChoiceField(VIEWS), read_only=True)
    clientSide = ClientSideSerializer(read_only=True, allow_null=True)
    bookings = BookingSerializer(many=True, read_only=True)
    recipients = RecipientSummarySerializer(many=True, read_only=True)
    recipientId = serializers.IntegerField(read_only=True, allow_null=True)
    requests = ServiceRequestSerializer(many=True, read_only=True)
    tiles = ProviderTilesSerializer(read_only=True, allow_null=True)
    unread = serializers.IntegerField(read_only=True)
    replacementOffers = ReplacementOfferSerializer(many=True, read_only=True)


def _default_view(user) -> str:
    return "provider" if user.user_type == UserType.PROVIDER else "client"


def _views_of(user, standing: str) -> list[str]:
    """The sides a person may see: the client side always (her own requests and bookings stay
    hers whatever the account's type), the helper side for a provider account or anyone with a
    provider profile. Staff see the client side only (their lists are in /admin)."""
    if user.is_admin:
        return ["client"]
    if user.user_type == UserType.PROVIDER or standing != "none":
        return ["provider", "client"]
    return ["client"]


def _view_choice(request: HttpRequest | Request) -> str | None:
    raw = request.GET.get(VIEW_PARAM, "").strip()
    return raw if raw in VIEWS else None


def check_view_param(request: Request) -> None:
    """The API says what is wrong with a ?view= that is neither side (400 on "view")."""
    if VIEW_PARAM in request.GET and _view_choice(request) is None:
        raise InvalidInput(VIEW_INVALID, errors={VIEW_PARAM: [VIEW_INVALID]})


def _view_of(request: HttpRequest | Request, views: list[str]) -> str:
    """The ?view= asked for when the viewer has that side, else the side of the account's type."""
    asked = _view_choice(request)
    if asked in views:
        return asked
    default = _default_view(request.user)
    return default if default in views else views[0]


RECIPIENT_PARAM = "recipient"  # ?recipient=<id>: the switcher's choice (page and API)
VIEW_PARAM = "view"  # ?view=client|provider: the side shown to someone who is both (page and API)
VIEW_INVALID = gettext_lazy("Choose client or provider.")


# What the dashboard's lists, tiles, standing, reviews and payouts card are read from: a write to
# any other table (a message, a notification, a session) leaves its cached value.
DASHBOARD_TABLES = (
    "accounts.User",
    "bookings.Booking",
    "bookings.Review",
    "bookings.VisitReport",
    "bookings.Replacement",
    "bookings.ReplacementOffer",
    "bookings.VisitTaskOutcome",
    "bookings.VisitPhoto",
    "circles.CareRecipient",
    "circles.CircleMember",
    "payments.ConnectedAccount",
    "payments.Earning",
    "payments.LateFee",
    "payments.VisitCharge",
    "providers.Provider",
    "providers.TimeOff",
    "providers.WeeklyHours",
    "requests_app.Offer",
    "requests_app.ServiceCategory",
    "requests_app.ServiceRequest",
)

RECIPIENT_MAX = 2**31 - 1
RECIPIENT_INVALID = gettext_lazy("Choose a person from the list.")


def _recipient_choice(request: HttpRequest | Request) -> int | None:
    """The ?recipient= the lists are narrowed to; on the page anything that is not an id is "all".
    A recipient outside the viewer's circles narrows to nothing (their lists are scoped anyway)."""
    raw = request.GET.get(RECIPIENT_PARAM, "").strip()
    return int(raw) if raw.isdigit() and len(raw) <= 10 and 1 <= int(raw) <= RECIPIENT_MAX else None


def check_recipient_param(request: Request) -> None:
    """The API says what is wrong with a ?recipient= that is not an id (400 on "recipient")."""
    if RECIPIENT_PARAM in request.GET and _recipient_choice(request) is None:
        raise InvalidInput(RECIPIENT_INVALID, errors={RECIPIENT_PARAM: [RECIPIENT_INVALID]})


def _lists_and_unread(request: HttpRequest | Request) -> tuple[dict, int]:
    """All the dashboard shows, through the list cache (core.listcache), in one round trip:
    its lists (_lists_read) and the unread count (which every message changes, so it is cached apart)."""
    lists, unread = cached_all([_lists_read(request), unread_summary_read(user_id=request.user.pk)])
    return lists, unread.count


def _lists_read(request: HttpRequest | Request) -> Read:
    """All the dashboard shows but the unread count: its lists and tiles as JSON
    (DashboardSerializer's fields, as the API sends them), the provider standing, the reviewed
    bookings and the payouts card."""
    user = request.user
    recipient_id = _recipient_choice(request)

    def compute() -> dict:
        standing = provider_standing(user=user)
        views = _views_of(user, standing)
        view = _view_of(request, views)
        provider = view == "provider"
        # Open requests are shown to verified providers only (the list's query checks it too).
        sees_requests = not provider or standing == "verified"
        chosen = None if provider else recipient_id
        instance = {
            "view": view,
            "views": views,
            "clientSide": _client_side(user) if provider else None,
            "bookings": booking_list_as_items(user=user, as_provider=provider, recipient_id=chosen, items=LIST_LIMIT),
            "requests": service_request_list_shown(user=user, recipient_id=chosen, as_provider=provider)[:LIST_LIMIT]
            if sees_requests
            else [],
            "tiles": booking_counts_as_provider(user=user) if provider else None,
            "recipients": [] if provider else list(recipient_list_for(user=user).only("id", "first_name", "last_name")),
            "recipientId": chosen,
            "replacementOffers": list(replacement_offers_for(user=user)) if provider and standing == "verified" else [],
        }
        data = DashboardSerializer(instance, context={"request": request}).data
        return {
            "data": json.loads(JSONRenderer().render(data)),  # money as numbers, dates as ISO text
            "standing": standing,
            "reviewed": [] if provider else _reviewed_booking_ids(user),
            # A verified provider's payouts setup (payments registers its models with the cache).
            "payout_card": payout_card(user=user) if standing == "verified" else None,
        }

    return Read(
        # The key names the value's shape ("4": with the view, the client side, the replacement
        # offers), so that a value cached by the code before a deploy, without a newer field, is
        # never read by the code after it; the side asked for (?view=); and the language its words
        # are in.
        ("dashboard", 4, user.pk, recipient_id, _view_choice(request), translation.get_language()),
        compute,
        tables=DASHBOARD_TABLES,
        max_age=lambda value: _stale_after(
            value["data"]["bookings"], value["data"]["requests"], provider=value["data"]["view"] == "provider"
        ),
    )


def _client_side(user) -> dict | None:
    """What the helper view says of the viewer's client side; None when she has nothing there."""
    counts = client_side_counts(user=user)
    return counts if counts["bookings"] or counts["requests"] else None


def _stale_after(bookings: list[dict], requests: list[dict], *, provider: bool) -> float:
    """Until "can cancel" turns false (48 hours ahead), a visit of the day turns late or missed, the
    day ends (Today's Schedule), a direct request's 24 hours end (it opens to all: a provider's list
    may gain it), or a finished visit's report can no longer be corrected (it leaves the helper's list)."""
    visits = visits_max_age(bookings)
    direct = direct_window_max_age(requests, provider_viewer=provider)
    report = report_window_max_age(bookings) if provider else None
    ends = [age for age in (can_cancel_max_age(bookings), direct, report) if age is not None]
    return min([visits, *ends])


def dashboard_data(request: HttpRequest | Request) -> dict:
    """DashboardSerializer's data for the signed-in user of `request`, as JSON."""
    lists, unread = _lists_and_unread(request)
    return {**lists["data"], "unread": unread}


def _reviewed_booking_ids(user) -> list[int]:
    """Bookings of the user's circles already reviewed (by them or another organizer: one review per
    booking): the dashboard hides their "Leave a Review" button."""
    return list(
        Review.objects.filter(booking__recipient_id__in=recipient_ids_of(user_id=user.pk)).values_list(
            "booking_id", flat=True
        )
    )


def dashboard(request: HttpRequest) -> HttpResponse:
    """Caller guarantees a signed-in user (home() or login_required_page)."""
    user = request.user
    lists, unread = _lists_and_unread(request)
    standing = lists["standing"]
    role = lists["data"]["view"]
    props = {
        "user": {"id": user.pk, "firstName": user.first_name, "userType": user.user_type},
        "role": role,
        "hasProviderProfile": standing != "none",
        # Only a verified provider is shown open requests; the others are told why.
        "providerStatus": standing,
        "reviewedBookingIds": lists["reviewed"],
        "initial": {**lists["data"], "unread": unread},
    }
    context = {
        "first_name": user.first_name.strip(),  # a name of spaces is no name (the page greets without one)
        "subtitle": PROVIDER_SUBTITLE if role == "provider" else CLIENT_SUBTITLE,
        "props": props,
        # A verified provider's payouts setup, in the helper view (server-rendered: a link and a form).
        "payout_card": lists["payout_card"] if role == "provider" else None,
    }
    return render(request, "pages/dashboard.html", context)


class DashboardView(APIView):
    """GET /api/dashboard: the dashboard's data again, for its refreshes (signed in)."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                RECIPIENT_PARAM,
                {"type": "integer", "minimum": 1, "maximum": RECIPIENT_MAX},
                description="Only the items for this care recipient (the switcher)",
            ),
            OpenApiParameter(
                VIEW_PARAM,
                str,
                enum=list(VIEWS),
                description="The side shown to someone who is both a client and a helper (default: the account's type)",
            ),
        ],
        responses=DashboardSerializer,
    )
    def get(self, request: Request) -> Response:
        check_recipient_param(request)
        check_view_param(request)
        return Response(dashboard_data(request))
