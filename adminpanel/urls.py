from django.urls import path

from adminpanel import views as pages
from adminpanel.api import views

# The /admin page (screens) adds its own path here.
urlpatterns = [
    path("admin", pages.admin_dashboard, name="admin-dashboard"),
    path("api/admin/providers", views.AdminProviderListView.as_view(), name="api-admin-providers"),
    path(
        "api/admin/providers/<int:pk>/status",
        views.AdminProviderStatusView.as_view(),
        name="api-admin-provider-status",
    ),
    path("api/admin/bookings", views.AdminBookingListView.as_view(), name="api-admin-bookings"),
    path(
        "api/admin/bookings/<int:pk>/reassign",
        views.AdminBookingReassignView.as_view(),
        name="api-admin-booking-reassign",
    ),
    path(
        "api/admin/bookings/<int:pk>/remove-helper",
        views.AdminBookingRemoveHelperView.as_view(),
        name="api-admin-booking-remove-helper",
    ),
    path("api/admin/bookings/<int:pk>/cancel", views.AdminBookingCancelView.as_view(), name="api-admin-booking-cancel"),
    path(
        "api/admin/bookings/<int:pk>/late-fee",
        views.AdminLateFeeDecisionView.as_view(),
        name="api-admin-late-fee",
    ),
    path(
        "api/admin/late-fee-disputes",
        views.AdminLateFeeDisputeListView.as_view(),
        name="api-admin-late-fee-disputes",
    ),
    path("api/admin/summary", views.AdminSummaryView.as_view(), name="api-admin-summary"),
    path("api/admin/market", views.AdminMarketView.as_view(), name="api-admin-market"),
    path("api/admin/today", views.AdminTodayView.as_view(), name="api-admin-today"),
    path(
        "api/admin/visit-verification",
        views.AdminVerifiedShareView.as_view(),
        name="api-admin-visit-verification",
    ),
    path("api/admin/service-requests", views.AdminServiceRequestListView.as_view(), name="api-admin-service-requests"),
]
