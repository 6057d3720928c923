"""The /messages page: conversations render from the server; the chat is a React island."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import login_required_page
from messaging import selectors
from messaging.services import MAX_CONTENT_LENGTH


def _person(user) -> dict:
    return {
        "id": user.pk,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "profileImageUrl": user.profile_image_url,
    }


def _conversation_props(conv: selectors.Conversation, *, me) -> dict:
    latest = conv.bookings[0] if conv.bookings else None
    if conv.is_support:
        role = "support"
    elif latest is not None and latest.client_id == me.pk:
        role = "provider"
    else:
        role = "client"
    return {
        "user": _person(conv.user),
        "role": role,
        "bookingId": latest.pk if latest else None,
        "bookings": [
            {
                "id": b.pk,
                "title": b.service_request.title or "Service Appointment",
                "scheduledDate": b.scheduled_date.isoformat(),
                "status": b.status,
            }
            for b in conv.bookings
        ],
    }


@login_required_page
def messages_page(request: HttpRequest) -> HttpResponse:
    me = request.user
    support = selectors.support_user()
    props = {
        "me": {**_person(me), "isAdmin": me.is_admin},
        "conversations": [_conversation_props(c, me=me) for c in selectors.conversation_list(user=me)],
        "support": _person(support) if support is not None and support.pk != me.pk else None,
        "unread": selectors.unread_summary(user_id=me.pk).as_payload(),
        "maxLength": MAX_CONTENT_LENGTH,
    }
    return render(request, "pages/messages.html", {"messages_props": props})
