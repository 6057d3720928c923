from django.urls import path

from bookings import views as pages
from bookings.api import views
from bookings.api import visit_photo as photo_views

urlpatterns = [
    path("calendar", pages.calendar_page, name="calendar"),
    path("calendar/reset", pages.calendar_feed_reset, name="calendar-reset"),
    path("calendar/<str:token>.ics", pages.calendar_feed, name="calendar-feed"),
    path("providers/<int:pk>", pages.provider_profile_page, name="provider-profile"),
    path("api/providers/<int:pk>/profile", views.ProviderProfileView.as_view(), name="api-provider-profile-public"),
    path("api/providers/<int:pk>/reviews", views.ProviderReviewListView.as_view(), name="api-provider-reviews"),
    path(
        "api/service-requests/<int:pk>/accept",
        views.ServiceRequestAcceptView.as_view(),
        name="api-service-request-accept",
    ),
    path("api/bookings", views.BookingListView.as_view(), name="api-bookings"),
    path("api/bookings/today", views.ProviderTodayView.as_view(), name="api-bookings-today"),
    path("api/bookings/<int:pk>", views.BookingDetailView.as_view(), name="api-booking"),
    path("api/bookings/<int:pk>/cancel", views.BookingCancelView.as_view(), name="api-booking-cancel"),
    path("api/bookings/<int:pk>/cancel-rest", views.BookingCancelRestView.as_view(), name="api-booking-cancel-rest"),
    path(
        "api/bookings/<int:pk>/provider-cancel",
        views.BookingProviderCancelView.as_view(),
        name="api-booking-provider-cancel",
    ),
    path(
        "api/bookings/<int:pk>/replacement/accept",
        views.BookingReplacementAcceptView.as_view(),
        name="api-booking-replacement-accept",
    ),
    path(
        "api/bookings/<int:pk>/replacement/refund",
        views.BookingReplacementRefundView.as_view(),
        name="api-booking-replacement-refund",
    ),
    path(
        "api/bookings/<int:pk>/replacement/wait",
        views.BookingReplacementWaitView.as_view(),
        name="api-booking-replacement-wait",
    ),
    path("api/replacement-offers", views.ReplacementOfferListView.as_view(), name="api-replacement-offers"),
    path("api/bookings/<int:pk>/complete", views.BookingCompleteView.as_view(), name="api-booking-complete"),
    path("api/bookings/<int:pk>/check-in", views.BookingCheckInView.as_view(), name="api-booking-check-in"),
    path("api/bookings/<int:pk>/nobody-home", views.BookingNobodyHomeView.as_view(), name="api-booking-nobody-home"),
    path("api/bookings/<int:pk>/check-out", views.BookingCheckOutView.as_view(), name="api-booking-check-out"),
    path("api/bookings/<int:pk>/photo", photo_views.VisitPhotoView.as_view(), name="api-booking-photo"),
    path("visit-photos/<str:token>", photo_views.VisitPhotoFileView.as_view(), name="visit-photo-file"),
    path("api/bookings/<int:pk>/report", views.BookingReportView.as_view(), name="api-booking-report"),
    path("api/bookings/<int:pk>/review", views.BookingReviewView.as_view(), name="api-booking-review"),
    path(
        "api/recipients/<int:pk>/visit-record.csv",
        views.VisitRecordExportView.as_view(),
        name="api-recipient-visit-record",
    ),
    path(
        "api/recipients/<int:pk>/visit-record.pdf",
        views.VisitRecordPdfView.as_view(),
        name="api-recipient-visit-record-pdf",
    ),
]
