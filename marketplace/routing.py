"""Websocket routes. The messaging app adds its consumer here."""

websocket_urlpatterns: list = []
