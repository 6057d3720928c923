from django.urls import path

from requests_app import views as pages
from requests_app.api import views

urlpatterns = [
    path("api/service-categories", views.ServiceCategoryListView.as_view(), name="api-service-categories"),
    path("api/service-requests", views.ServiceRequestListCreateView.as_view(), name="api-service-requests"),
    path("api/service-requests/<int:pk>", views.ServiceRequestDetailView.as_view(), name="api-service-request"),
    path(
        "api/service-requests/<int:pk>/decline",
        views.ServiceRequestDeclineView.as_view(),
        name="api-service-request-decline",
    ),
    path(
        "api/service-requests/<int:pk>/not-for-me",
        views.OfferDeclineView.as_view(),
        name="api-service-request-not-for-me",
    ),
    path("service-request-details", pages.service_request_details, name="service-request-details"),
    path("edit-service-request", pages.edit_service_request, name="edit-service-request"),
    path("request-service", pages.request_service, name="request-service"),
]
