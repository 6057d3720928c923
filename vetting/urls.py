from django.urls import path

from vetting import views
from vetting.api import views as api_views

urlpatterns = [
    path("api/vetting/me", api_views.MyVettingView.as_view(), name="vetting-me"),
    path("api/vetting/identity", api_views.IdentityStartView.as_view(), name="vetting-identity"),
    path("api/vetting/background-check", api_views.BackgroundCheckStartView.as_view(), name="vetting-background"),
    path("api/vetting/stripe/webhook", api_views.stripe_identity_webhook, name="vetting-stripe-webhook"),
    path("api/vetting/checkr/webhook", api_views.checkr_webhook, name="vetting-checkr-webhook"),
    path("api/admin/vetting", api_views.AdminVettingQueueView.as_view(), name="admin-vetting"),
    path("api/admin/vetting/<int:pk>/adjudication", api_views.AdminAdjudicateView.as_view(), name="admin-adjudicate"),
    path(
        "api/admin/vetting/<int:pk>/adverse-steps", api_views.AdminAdverseStepView.as_view(), name="admin-adverse-step"
    ),
    # The offline gateways' stand-ins for Stripe's and Checkr's hosted pages (404 with the live ones).
    path("vetting/offline/identity/<str:session_id>", views.offline_identity, name="vetting-offline-identity"),
    path(
        "vetting/offline/background-check/<str:invitation_id>",
        views.offline_background_check,
        name="vetting-offline-background-check",
    ),
]
