from django.urls import path

from notifications import views
from notifications.api import views as api

urlpatterns = [
    path("unsubscribe/<str:token>", views.unsubscribe, name="notifications-unsubscribe"),
    path("api/notification-preferences", api.NotificationPreferencesView.as_view(), name="notification-preferences"),
]
