from django.urls import path

from payments import views
from payments.api import receipts as receipt_views
from payments.api import views as api_views

urlpatterns = [
    path("checkout/<str:booking_id>", views.checkout, name="checkout"),
    path("api/create-payment-intent", api_views.CreatePaymentIntentView.as_view(), name="create-payment-intent"),
    path("api/payments/stripe/webhook", api_views.stripe_webhook, name="stripe-webhook"),
    path("api/payments/stripe/connect-webhook", api_views.stripe_connect_webhook, name="stripe-connect-webhook"),
    path("api/payments/stripe/sync", api_views.StripeSyncView.as_view(), name="stripe-sync"),
    # Answers 404 unless the offline test gateway is active.
    path("api/payments/test/confirm", api_views.OfflineCardConfirmView.as_view(), name="test-gateway-confirm"),
    # Providers get paid (payments.payouts).
    path("earnings", views.earnings, name="earnings"),
    path("earnings.csv", views.earnings_csv, name="earnings-csv"),
    path("api/earnings", api_views.EarningsView.as_view(), name="api-earnings"),
    path("api/earnings/<int:booking_id>", api_views.EarningDetailView.as_view(), name="api-earning"),
    # The cancellation policy's late fee (payments.latefees).
    path("late-fees/<int:booking_id>", views.late_fee_page, name="late-fee"),
    path("api/bookings/<int:booking_id>/late-fee", api_views.LateFeeView.as_view(), name="api-late-fee"),
    path(
        "api/bookings/<int:booking_id>/late-fee/dispute",
        api_views.LateFeeDisputeView.as_view(),
        name="api-late-fee-dispute",
    ),
    # A saved card, charged per visit (payments.cards).
    path("api/payment-method", api_views.PaymentMethodView.as_view(), name="api-payment-method"),
    path("api/payment-method/setup", api_views.PaymentMethodSetupView.as_view(), name="api-payment-method-setup"),
    path(
        "api/payment-method/setup/finish",
        api_views.PaymentMethodSetupFinishView.as_view(),
        name="api-payment-method-setup-finish",
    ),
    # Answers 404 unless the offline test gateway is active.
    path("api/payment-method/test", api_views.PaymentMethodTestSaveView.as_view(), name="api-payment-method-test"),
    path(
        "api/bookings/<int:booking_id>/auto-charge",
        api_views.BookingAutoChargeView.as_view(),
        name="api-booking-auto-charge",
    ),
    # Tips (payments.tips) and faster pay (payments.instant).
    path("api/bookings/<int:booking_id>/tip", api_views.TipView.as_view(), name="api-tip"),
    path("api/earnings/instant-payout", api_views.InstantPayoutView.as_view(), name="api-instant-payout"),
    path("earnings/get-paid-now", views.get_paid_now, name="get-paid-now"),
    # Receipts families can file (payments.receipts).
    path("api/bookings/<int:pk>/receipt.pdf", receipt_views.ReceiptPdfView.as_view(), name="api-booking-receipt"),
    path("api/recipients/<int:pk>/statement.pdf", receipt_views.StatementPdfView.as_view(), name="api-statement-pdf"),
    path("api/recipients/<int:pk>/statement.csv", receipt_views.StatementCsvView.as_view(), name="api-statement-csv"),
    path("payouts/setup", views.payouts_setup, name="payouts-setup"),
    path("payouts/return", views.payouts_return, name="payouts-return"),
    path("payouts/refresh", views.payouts_refresh, name="payouts-refresh"),
    # Answers 404 unless the offline test gateway is active.
    path("payouts/test-onboarding", views.payouts_test_onboarding, name="payouts-test-onboarding"),
]
