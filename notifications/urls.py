from django.urls import path

from notifications import views
from notifications.api import views as api

urlpatterns = [
    path("unsubscribe/<str:token>", views.unsubscribe, name="notifications-unsubscribe"),
    path("api/notifications/twilio/inbound", views.twilio_inbound, name="notifications-twilio-inbound"),
    path("api/notification-preferences", api.NotificationPreferencesView.as_view(), name="notification-preferences"),
]
