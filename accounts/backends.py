"""The signed-in user of a session, read with prepared SQL (marketplace/prepared.py).

Every signed-in request looks its user up by id; with Django's ModelBackend that meant building
and compiling the same one-table query each time, a good part of a small API call's cost (issue 8's
load benchmark). Passwords live in Firebase, so authenticate() is never asked of a backend here.
"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend

from accounts.models import User
from marketplace.prepared import PreparedList

_BY_ID = PreparedList(lambda user_id: User.objects.filter(pk=user_id).order_by(), "user_id")


class SessionUserBackend(ModelBackend):
    def get_user(self, user_id) -> User | None:
        """ModelBackend.get_user: the user with this id, if they may sign in (active)."""
        users = _BY_ID.page(0, 1, user_id=str(user_id))
        if users and self.user_can_authenticate(users[0]):
            return users[0]
        return None
