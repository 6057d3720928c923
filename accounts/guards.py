"""Server-side page guards (spec route table) and toasts queued across a redirect.

Use on function views:

    @login_required_page            # signed out -> /login?next=<path>
    def dashboard(request): ...

    @admin_required_page            # signed out -> /login; signed in, not admin -> / with a toast;
    def admin_page(request): ...    # an admin who has not passed the second step -> /second-factor

`queue_toast(request, title=..., description=..., variant=...)` stores a toast in
django.contrib.messages; the next page rendered from base.html shows it (see
accounts.context_processors.toasts).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Literal
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from accounts.middleware import second_factor_redirect
from accounts.second_factor import needs_second_factor

ToastVariant = Literal["default", "destructive"]

# extra_tags of a queued toast: this marker followed by a JSON object {"title", "variant"}.
TOAST_TAG = "kindly-toast:"


def queue_toast(request: HttpRequest, *, title: str, description: str = "", variant: ToastVariant = "default") -> None:
    """Queue a toast shown on the next page the browser renders (after a redirect)."""
    level = messages.ERROR if variant == "destructive" else messages.INFO
    tags = TOAST_TAG + json.dumps({"title": title, "variant": variant}, separators=(",", ":"))
    messages.add_message(request, level, description, extra_tags=tags)


def login_redirect(request: HttpRequest) -> HttpResponseRedirect:
    """Redirect to /login, coming back to the current path (with its query) afterwards."""
    return HttpResponseRedirect("/login?" + urlencode({"next": request.get_full_path()}))


def login_required_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed-out visitors are sent to /login?next=<path>."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        return view(request, *args, **kwargs)

    return wrapped


def admin_required_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed out -> /login; signed in but not an admin -> / with "Unauthorized" / "Admin access required";
    an admin whose session has not passed the second step -> the step (accounts.second_factor)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not request.user.is_admin:
            queue_toast(request, title="Unauthorized", description="Admin access required", variant="destructive")
            return HttpResponseRedirect("/")
        if needs_second_factor(request.user):
            return second_factor_redirect(request)
        return view(request, *args, **kwargs)

    return wrapped
