from django.urls import path

from phoneline import menu_views as menu
from phoneline import pages, views
from phoneline.api import views as api

urlpatterns = [
    path("phone-simulator", pages.phone_simulator, name="phone-simulator"),
    path("api/phone/twilio/voice", views.voice, name="phoneline-voice"),
    path("api/phone/twilio/voice/done", views.voice_done, name="phoneline-voice-done"),
    path("api/phone/twilio/text", views.text, name="phoneline-text"),
    path("api/bookings/<int:pk>/phone-line", api.PhoneLineView.as_view(), name="api-booking-phone-line"),
    path("api/admin/bookings/<int:pk>/phone-records", api.PhoneRecordsView.as_view(), name="api-admin-phone-records"),
    path("api/phone/menu", menu.start, name="phone-menu"),
    path("api/phone/menu/pin", menu.pin, name="phone-menu-pin"),
    path("api/phone/menu/main", menu.main, name="phone-menu-main"),
    path("api/phone/menu/choice", menu.choice, name="phone-menu-choice"),
    path("api/phone/menu/confirm", menu.confirm, name="phone-menu-confirm"),
    path("api/phone/menu/cancel", menu.cancel, name="phone-menu-cancel"),
    path("api/phone/menu/again", menu.again, name="phone-menu-again"),
    path("api/phone/menu/recorded", menu.recorded, name="phone-menu-recorded"),
    path("api/phone/menu/transcribed", menu.transcribed, name="phone-menu-transcribed"),
    path("api/phone/reminder", menu.reminder, name="phone-reminder"),
    path("api/phone/reminder/answer", menu.reminder_answer, name="phone-reminder-answer"),
    path("api/phone/reminder/status", menu.reminder_status, name="phone-reminder-status"),
    path("api/care-recipients/<int:pk>/phone-reminder", api.PhoneReminderView.as_view(), name="api-phone-reminder"),
    path("api/care-recipients/<int:pk>/phone-pin", api.PhonePinView.as_view(), name="api-care-recipient-phone-pin"),
    path("api/admin/voicemails", api.VoicemailListView.as_view(), name="api-admin-voicemails"),
    path("api/admin/phone-records", api.StaffPhoneRecordListView.as_view(), name="api-admin-phone-records-all"),
]
