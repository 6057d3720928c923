from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.guards import login_required_page
from marketplace import dashboard, health, views
from marketplace.account_lifecycle import views as account_lifecycle

urlpatterns = [
    path("", views.home, name="home"),
    path("landing", views.landing, name="landing"),
    path("privacy-policy", views.privacy_policy, name="privacy-policy"),
    path("privacy-policy.html", views.privacy_policy, name="privacy-policy-html"),
    path("terms-of-service.html", views.terms_of_service, name="terms-of-service"),
    path("cancellation-policy", views.cancellation_policy, name="cancellation-policy"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("providers", views.providers_browse, name="providers-browse"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("dashboard", login_required_page(views.home), name="dashboard"),
    path("api/dashboard", dashboard.DashboardView.as_view(), name="api-dashboard"),
    path("settings", account_lifecycle.settings_page, name="settings"),
    path("api/account/export", account_lifecycle.AccountExportView.as_view(), name="account-export"),
    path("api/account/close", account_lifecycle.AccountCloseView.as_view(), name="account-close"),
    path("django-admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("accounts.urls")),
    path("", include("circles.urls")),
    path("", include("providers.urls")),
    path("", include("requests_app.urls")),
    path("", include("bookings.urls")),
    path("", include("messaging.urls")),
    path("", include("payments.urls")),
    path("", include("adminpanel.urls")),
    path("", include("notifications.urls")),
    path("", include("vetting.urls")),
    path("", include("phoneline.urls")),
]

handler404 = "marketplace.views.not_found"
handler500 = "marketplace.views.server_error"
