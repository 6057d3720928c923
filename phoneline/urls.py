from django.urls import path

from phoneline import views
from phoneline.api import views as api

urlpatterns = [
    path("api/phone/twilio/voice", views.voice, name="phoneline-voice"),
    path("api/phone/twilio/voice/done", views.voice_done, name="phoneline-voice-done"),
    path("api/phone/twilio/text", views.text, name="phoneline-text"),
    path("api/bookings/<int:pk>/phone-line", api.PhoneLineView.as_view(), name="api-booking-phone-line"),
    path("api/admin/bookings/<int:pk>/phone-records", api.PhoneRecordsView.as_view(), name="api-admin-phone-records"),
]
