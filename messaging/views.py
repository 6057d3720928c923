"""The /messages page: conversations render from the server; the chat is a React island."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import login_required_page
from core.support import support_contacts
from messaging import selectors
from messaging.api.serializers import conversation_payload, person_payload
from messaging.services import MAX_CONTENT_LENGTH


@login_required_page
def messages_page(request: HttpRequest) -> HttpResponse:
    me = request.user
    support = selectors.support_user()
    props = {
        "me": {**person_payload(me), "isAdmin": me.is_admin},
        "conversations": [conversation_payload(c, me=me) for c in selectors.conversation_list(user=me)],
        "support": person_payload(support) if support is not None and support.pk != me.pk else None,
        "unread": selectors.unread_summary(user_id=me.pk).as_payload(),
        "maxLength": MAX_CONTENT_LENGTH,
        "supportContacts": support_contacts().as_props(),
    }
    return render(request, "pages/messages.html", {"messages_props": props})
