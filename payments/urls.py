from django.urls import path

from payments import views
from payments.api import views as api_views

urlpatterns = [
    path("checkout/<str:booking_id>", views.checkout, name="checkout"),
    path("api/create-payment-intent", api_views.CreatePaymentIntentView.as_view(), name="create-payment-intent"),
    path("api/payments/stripe/webhook", api_views.stripe_webhook, name="stripe-webhook"),
    path("api/payments/stripe/sync", api_views.StripeSyncView.as_view(), name="stripe-sync"),
    # Answers 404 unless the offline test gateway is active.
    path("api/payments/test/confirm", api_views.OfflineCardConfirmView.as_view(), name="test-gateway-confirm"),
]
