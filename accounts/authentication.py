"""DRF authentication: `Authorization: Bearer <Firebase ID token>` for API clients.

The browser uses the Django session (SessionAuthentication, CSRF enforced); API clients may send
a Firebase ID token instead. A token carries its own proof, so CSRF does not apply to it.
"""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.firebase import InvalidIdToken, verify_id_token
from accounts.models import User
from accounts.selectors import user_get_by_uid
from accounts.services import user_sync_from_claims
from marketplace.errors import DomainError


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
        return user, claims

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'
