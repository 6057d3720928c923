"""Files an email carries: the payment receipt email brings the visit's receipt as a PDF
(payments.receipts), for the organizers who read it, so it can be filed as it arrives.
Rendered when the email is sent (a Celery task, outside any transaction)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from circles.selectors import is_organizer
from core.notices.kinds import NoticeKind
from core.pdf import PDF_CONTENT_TYPE
from payments import receipts

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from django.core.mail import EmailMultiAlternatives

    from accounts.models import User
    from notifications.models import Event


def attach_files(message: EmailMultiAlternatives, event: Event, user: User) -> None:
    if event.kind != NoticeKind.PAYMENT_RECEIVED or event.booking is None:
        return
    # Money papers are the organizers' (payments.receipts): a member never gets one.
    if not is_organizer(user_id=user.pk, recipient_id=event.booking.recipient_id):
        return
    line = receipts.receipt_for_booking(event.booking.pk)
    if line is None:
        return
    try:
        pdf = receipts.receipt_pdf(line)
    except Exception:
        # The payment news matters more than its paper: the email goes; the receipt stays on the
        # dashboard ("Download the receipt").
        logger.exception("receipt of booking %s could not be printed for its email", event.booking.pk)
        return
    message.attach(receipts.receipt_filename(line), pdf, PDF_CONTENT_TYPE)
