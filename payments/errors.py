"""Payment errors shown to users (spec section 8)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from core.errors import DomainError

CREATE_FAILED_MESSAGE = gettext_lazy("Failed to create payment. Please try again.")


class PaymentGatewayUnavailable(DomainError):
    """The payment gateway refused or could not be reached: 502, and nothing was changed."""

    status_code = 502
    default_message = CREATE_FAILED_MESSAGE
