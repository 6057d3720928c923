"""Domain errors raised by services and mapped to HTTP by core.api.exception_handler.

Services raise these; views never build error responses by hand. Their messages are marked for
translation (a module's constant with gettext_lazy, a message built when raised with gettext): the
exception handler answers them in the request's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

StrOrPromise = str | Promise

# The message of a 400 that names more than one field (the fields carry their own words).
SEVERAL_PROBLEMS = gettext_lazy("Please correct the highlighted fields.")


class DomainError(Exception):
    status_code = 400
    default_message = gettext_lazy("Invalid request")

    def __init__(self, message: StrOrPromise | None = None, *, errors: dict[str, list[Any]] | None = None):
        self.message = message or self.default_message
        self.errors = errors or {}
        super().__init__(self.message)


class InvalidInput(DomainError):
    """The input breaks a rule: 400."""

    @classmethod
    def check(cls, errors: dict[str, list[Any]]) -> None:
        """Raise when `errors` ({field: [messages]}) names any problem: the message is the one
        problem's text, or a call to correct the fields when there are several (as the API's own
        400 answers read)."""
        errors = {field: messages for field, messages in errors.items() if messages}
        if not errors:
            return
        messages = [message for field_messages in errors.values() for message in field_messages]
        message = messages[0] if len(errors) == 1 else SEVERAL_PROBLEMS
        raise cls(message, errors=errors)


class PermissionDenied(DomainError):
    """The actor may see the object but not do this to it: 403."""

    status_code = 403
    default_message = gettext_lazy("You do not have permission to do this.")


class NotFound(DomainError):
    """The object does not exist or is not visible to the actor: 404."""

    status_code = 404
    default_message = gettext_lazy("Not found.")


class Conflict(DomainError):
    """The object is in a state that does not allow this: 409."""

    status_code = 409
    default_message = gettext_lazy("This cannot be done in the current state.")


class GatewayError(Exception):
    """An outside service (Stripe, Checkr...) refused the call or could not be reached; the gateways
    of payments and vetting raise it. `message` is for logs, not users."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)
