"""Hooks of the circles app for the apps above it (they connect in their AppConfig.ready).

member_removed: sent once the removal has committed, with recipient_id and user_id. messaging
connects to it so the removed person's open sockets stop getting the circle's live events at once.

invitation_sent: sent once an invitation (new or renewed) has committed, with invitation_id; the
notifications app emails the invited address (circles never imports it).
"""

from django.dispatch import Signal

member_removed = Signal()
# invitation_sent: sent once an invitation (new or renewed) has committed, with invitation_id.
# notifications connects to it and emails the invited address from Celery.
invitation_sent = Signal()
