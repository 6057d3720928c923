from django.urls import path

from providers import views as pages
from providers.api import views

urlpatterns = [
    path("api/providers", views.ProviderListView.as_view(), name="api-providers"),
    path("api/providers/me/schedule", views.ScheduleView.as_view(), name="api-provider-schedule"),
    path("api/providers/me/time-off", views.TimeOffView.as_view(), name="api-provider-time-off"),
    path(
        "api/providers/me/time-off/<int:time_off_id>",
        views.TimeOffDetailView.as_view(),
        name="api-provider-time-off-detail",
    ),
    path("schedule", pages.schedule, name="schedule"),
    path("api/provider/profile", views.ProviderProfileView.as_view(), name="api-provider-profile"),
    path("provider-signup", pages.provider_signup, name="provider-signup"),
]
