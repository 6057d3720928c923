"""Template context shared by every page rendered from base.html."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest

from accounts.guards import TOAST_TAG


def _message_to_toast(message: messages.storage.base.Message) -> dict[str, str]:
    tags = message.extra_tags or ""
    if tags.startswith(TOAST_TAG):
        try:
            meta = json.loads(tags[len(TOAST_TAG) :])
        except ValueError:
            meta = {}
        return {
            "title": str(meta.get("title", "")),
            "description": str(message.message),
            "variant": "destructive" if meta.get("variant") == "destructive" else "default",
        }
    # A plain Django message: its text becomes the title.
    variant = "destructive" if message.level >= messages.ERROR else "default"
    return {"title": str(message.message), "description": "", "variant": variant}


def toasts(request: HttpRequest) -> dict[str, Callable[[], list[dict[str, str]]]]:
    """`toasts`: the queued messages as [{"title", "description", "variant"}].

    A callable, so messages are consumed only by a template that renders `toasts` (base.html),
    never by pages that show messages their own way (the Django admin).
    """

    def _toasts() -> list[dict[str, str]]:
        return [_message_to_toast(m) for m in messages.get_messages(request)]

    return {"toasts": _toasts}
