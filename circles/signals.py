"""Hooks of the circles app for the apps above it (they connect in their AppConfig.ready).

member_removed: sent once the removal has committed, with recipient_id and user_id. messaging
connects to it so the removed person's open sockets stop getting the circle's live events at once.
"""

from django.dispatch import Signal

member_removed = Signal()
