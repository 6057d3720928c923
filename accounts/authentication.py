"""Who is asking: the session's user (Django's auth backend), or a Firebase ID token.

The browser uses the Django session (SessionAuthentication, CSRF enforced); API clients may send
`Authorization: Bearer <Firebase ID token>` instead. A token carries its own proof, so CSRF does
not apply to it. A staff account's token is refused: staff pass a second step after Firebase
(accounts.second_factor), which only a browser session carries.
"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.utils import translation
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.firebase import InvalidIdToken, verify_id_token
from accounts.models import User
from accounts.second_factor import STAFF_TOKEN_REFUSED
from accounts.selectors import user_get_by_uid
from accounts.services import user_sync_from_claims
from core.errors import DomainError
from core.listcache import cached


class CachedModelBackend(ModelBackend):
    """Django's ModelBackend, the session's user read through the list cache (core.listcache).

    Every request of a signed-in browser loads its user; the user changes seldom. It is cached in
    the user's own row scope: a write to that user (a sign-in's last_login alone excepted,
    accounts.apps) and no other, so a changed, deactivated or deleted user is read from the
    database on their next request, and a write to anyone else leaves it cached.
    Django's own checks still run on what is returned: is_active here (ModelBackend), the session's
    auth hash in django.contrib.auth.get_user().
    """

    def get_user(self, user_id):
        load = super().get_user
        return cached(("session-user", user_id), lambda: load(user_id), rows=[(User, user_id)])


class FirebaseBearerAuthentication(BaseAuthentication):
    keyword = b"bearer"

    def authenticate(self, request) -> tuple[User, dict] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Unauthorized")
        try:
            token = parts[1].decode("ascii")
            claims = verify_id_token(token)
        except (UnicodeError, InvalidIdToken):
            raise exceptions.AuthenticationFailed("Unauthorized") from None
        user = user_get_by_uid(uid=claims["uid"])
        if user is None:
            try:
                user = user_sync_from_claims(claims=claims)
            except DomainError:
                raise exceptions.AuthenticationFailed("Unauthorized") from None
        if not user.is_active:
            raise exceptions.AuthenticationFailed("Unauthorized")
        if user.is_admin:
            raise exceptions.PermissionDenied(STAFF_TOKEN_REFUSED)
        # A token's user is known only here (the middleware saw no session): from now on the API
        # answers in their language, as UserLanguageMiddleware does for a session.
        if user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
        return user, claims

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'
