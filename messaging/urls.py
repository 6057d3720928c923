from django.urls import path

from messaging import views
from messaging.api import views as api

urlpatterns = [
    path("messages", views.messages_page, name="messages"),
    path("api/messages", api.MessageCreateView.as_view(), name="api-message-create"),
    path("api/messages/all", api.MessageListView.as_view(), name="api-message-list"),
    path("api/messages/conversations", api.ConversationListView.as_view(), name="api-message-conversations"),
    path("api/messages/unread-count", api.UnreadCountView.as_view(), name="api-message-unread-count"),
    path(
        "api/messages/conversation/<str:other_user_id>",
        api.ConversationView.as_view(),
        name="api-message-conversation",
    ),
    path("api/messages/booking/<int:booking_id>", api.ThreadView.as_view(), name="api-message-thread"),
    path(
        "api/messages/system-notifications",
        api.SystemNotificationsView.as_view(),
        name="api-message-system-notifications",
    ),
]
