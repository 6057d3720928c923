"""Websocket routes. The messaging app adds its consumer here."""

from django.urls import path

from messaging.consumers import EventsConsumer

websocket_urlpatterns: list = [
    path("ws/events/", EventsConsumer.as_asgi()),
]
