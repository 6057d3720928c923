"""Writes of bookings, one module per part of a booking's life; callers import from here.

    accept    a helper accepts a request (one booking, or one per visit of a series); an admin
              reassigns a confirmed booking
    payment   the booking's side of its payment and of its refund (driven by payments)
    cancel    the client's cancel (one visit, the rest of a series), an admin's, an account closure's
    replacement  a helper leaves (she cancels, staff remove her, a suspension) and another takes the visit
    visit     check-in, check-out (completed), the visit report, the alerts about a visit
    review    a review of a completed visit
    schedule  the calendar feed's token, the recipient's clock
    base      what they share: the row lock, the checks, how the people of a booking are told

Where a request's and a booking's status move together (accept, cancel, completion, payment) is
decided in one module, bookings.lifecycle; these services check who may do what, call it, and
tell the people concerned.
"""

from bookings.lifecycle import (
    CANCEL_WINDOW_MESSAGE,
    booking_can_client_cancel,
    cancel_refund_amount,
    check_cancel_window,
    late_fee_amount,
    late_fee_policy_amount,
)
from bookings.services.accept import (
    PROVIDER_BUSY,
    PROVIDER_BUSY_FOR_ADMIN,
    booking_reassign,
    check_provider_free,
    series_summary,
    service_request_accept,
)
from bookings.services.base import (
    PENDING_VERIFICATION_MESSAGE,
    booking_lock,
    booking_total,
    check_admin,
    check_booking_client,
    check_booking_provider,
    check_booking_status,
    organizers_of,
)
from bookings.services.cancel import (
    booking_cancel_by_admin,
    booking_cancel_by_client,
    booking_cancel_on_account_closure,
    booking_cancel_rest_by_client,
    booking_cancel_rest_preview,
)
from bookings.services.payment import (
    booking_lock_by_payment_intent,
    booking_payment_failed,
    booking_payment_succeeded,
    booking_refund_failed,
    booking_refund_retried,
    booking_refund_succeeded,
    booking_refunded,
)
from bookings.services.replacement import (
    booking_cancel_by_provider,
    booking_remove_provider,
    booking_replacement_accept,
    booking_replacement_refund,
    booking_replacement_wait,
    replacement_offers_send,
    replacements_for_suspension,
)
from bookings.services.review import review_create
from bookings.services.schedule import (
    calendar_feed_reset,
    calendar_feed_token,
    on_recipient_time_zone_changed,
    recipient_time_zone_set,
)
from bookings.services.visit import (
    REPORT_EMPTY,
    VISIT_REPORT_TEXT_MAX,
    WELLBEING_RANGE,
    booking_check_in,
    booking_check_out,
    booking_complete,
    booking_report_nobody_home,
    on_provider_suspended,
    rounded_location,
    visit_alert_raise,
    visit_alerts_due,
    visit_checklist,
    visit_locations_purge,
    visit_report_problems,
    visit_report_save,
)

__all__ = [
    "booking_cancel_by_provider",
    "booking_remove_provider",
    "booking_replacement_accept",
    "booking_replacement_refund",
    "booking_replacement_wait",
    "replacement_offers_send",
    "replacements_for_suspension",
    "on_provider_suspended",
    "CANCEL_WINDOW_MESSAGE",
    "PENDING_VERIFICATION_MESSAGE",
    "PROVIDER_BUSY",
    "PROVIDER_BUSY_FOR_ADMIN",
    "REPORT_EMPTY",
    "VISIT_REPORT_TEXT_MAX",
    "WELLBEING_RANGE",
    "booking_can_client_cancel",
    "booking_cancel_by_admin",
    "booking_cancel_by_client",
    "booking_cancel_on_account_closure",
    "booking_cancel_rest_by_client",
    "booking_cancel_rest_preview",
    "booking_check_in",
    "booking_check_out",
    "booking_report_nobody_home",
    "late_fee_amount",
    "late_fee_policy_amount",
    "booking_complete",
    "booking_lock",
    "booking_lock_by_payment_intent",
    "booking_payment_failed",
    "booking_payment_succeeded",
    "booking_reassign",
    "booking_refund_failed",
    "booking_refund_retried",
    "booking_refund_succeeded",
    "booking_refunded",
    "booking_total",
    "calendar_feed_reset",
    "calendar_feed_token",
    "cancel_refund_amount",
    "check_admin",
    "check_booking_client",
    "check_booking_provider",
    "check_booking_status",
    "check_cancel_window",
    "check_provider_free",
    "organizers_of",
    "on_recipient_time_zone_changed",
    "recipient_time_zone_set",
    "review_create",
    "rounded_location",
    "series_summary",
    "service_request_accept",
    "visit_alert_raise",
    "visit_alerts_due",
    "visit_checklist",
    "visit_locations_purge",
    "visit_report_problems",
    "visit_report_save",
]
