"""Hooks of the bookings app for the apps above it."""

from django.dispatch import Signal

# Sent with `booking` when a paid booking is to be refunded in full, inside the transaction that
# holds its row lock (refundStatus is already pending). payments records the refund and sends it
# to the gateway once that transaction has committed (payments.refunds).
refund_requested = Signal()

# Sent with `booking` when the provider marks a paid visit completed, inside the transaction that
# holds its row lock. payments sends the provider's share to their account after the commit, or
# reminds them to set up payouts (payments.payouts).
booking_completed = Signal()
