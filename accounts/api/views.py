"""The accounts API: session sync with Firebase, the signed-in profile, user type.

Emergency contacts belong to a care recipient: their endpoints are circles.api.views (the
circle decides who may read and edit them).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import login, logout
from django.http import HttpResponse, HttpResponseRedirect
from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.api.serializers import (
    LanguageInputSerializer,
    SessionInputSerializer,
    UserSerializer,
    UserTypeInputSerializer,
)
from accounts.firebase import AccountDisabled, InvalidIdToken, verify_id_token
from accounts.models import User
from core.listcache import cached
from core.throttling import SignInThrottle

logger = logging.getLogger(__name__)


def _unauthorized() -> Response:
    return Response({"message": "Unauthorized", "errors": {}}, status=status.HTTP_401_UNAUTHORIZED)


def _account_closed() -> Response:
    return Response({"message": services.ACCOUNT_CLOSED_MESSAGE, "errors": {}}, status=status.HTTP_403_FORBIDDEN)


class SessionView(APIView):
    """POST /api/auth/session {idToken, firstName?, lastName?}: sign in with a fresh Firebase ID token.

    The token must be valid for our project and come from a sign-in at most
    SESSION_SYNC_MAX_AGE seconds old. Any failure is 401 "Unauthorized", except a Kindly
    account closed by its owner: 403 with a message saying so. On success the
    Django session starts under a new session key.
    """

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]  # per client IP: token guessing and sign-in floods

    @extend_schema(operation_id="auth_session_create", request=SessionInputSerializer, responses={200: UserSerializer})
    def post(self, request: Request) -> Response:
        # Login CSRF: the page posts the token with the CSRF header like any other write.
        SessionAuthentication().enforce_csrf(request)
        data = SessionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            claims = verify_id_token(
                data.validated_data.get("idToken", ""),
                max_auth_age=settings.SESSION_SYNC_MAX_AGE,
                check_revoked=True,
            )
        except AccountDisabled as exc:
            logger.info("Session sync refused: the Firebase account is disabled")
            closed = exc.uid is not None and User.objects.filter(pk=exc.uid, closed_at__isnull=False).exists()
            return _account_closed() if closed else _unauthorized()
        except InvalidIdToken as exc:
            logger.info("Session sync refused: %s", exc)
            return _unauthorized()
        known = selectors.user_get_by_uid(uid=claims["uid"])
        if known is not None and known.is_closed:
            logger.info("Session sync refused: the account is closed")
            return _account_closed()
        user = services.user_sync_from_claims(
            claims=claims,
            first_name=data.validated_data.get("firstName", ""),
            last_name=data.validated_data.get("lastName", ""),
            language=data.validated_data.get("language") or translation.get_language_from_request(request._request),
        )
        if not user.is_active:
            return _unauthorized()
        # A fresh session key on every sign-in (no fixation; login() keeps the key when the same
        # user signs in again), and login() rotates the CSRF token.
        request._request.session.cycle_key()
        login(request._request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        return Response(UserSerializer(user).data)


class LogoutView(APIView):
    """POST /api/auth/logout: end the Django session (the whole sign-out; see ARCHITECTURE.md)."""

    authentication_classes = [SessionAuthentication]
    permission_classes = [AllowAny]

    @extend_schema(operation_id="auth_logout", request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CurrentUserView(APIView):
    """GET /api/auth/user: the signed-in user's own profile."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_user_retrieve", responses=UserSerializer)
    def get(self, request: Request) -> HttpResponse:
        # API clients ask for it often and it changes seldom: the JSON is kept in the list cache
        # until a write to this user (accounts.apps), so a hit neither serializes nor renders.
        user, renderer = request.user, request.accepted_renderer
        content = cached(
            ("auth-user", user.pk, renderer.format),
            lambda: renderer.render(UserSerializer(user).data, request.accepted_media_type),
            rows=[(User, user.pk)],
        )
        return HttpResponse(content, content_type=renderer.media_type)


class UserTypeView(APIView):
    """PUT /api/auth/user-type {userType}: client <-> provider. Admins 403; other values 400."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_user_type_update", request=UserTypeInputSerializer, responses=UserSerializer)
    def put(self, request: Request) -> Response:
        data = UserTypeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_type_switch(user=request.user, user_type=data.validated_data["userType"])
        return Response(UserSerializer(user).data)


class LanguageView(APIView):
    """PUT /api/auth/language {language}: "en" or "es", the language Kindly speaks to the caller in."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_language_update", request=LanguageInputSerializer, responses=UserSerializer)
    def put(self, request: Request) -> Response:
        data = LanguageInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_language_set(user=request.user, language=data.validated_data["language"])
        return Response(UserSerializer(user).data)


def api_login_redirect(request) -> HttpResponseRedirect:
    """GET /api/login: where pages send a browser whose session was found lost."""
    return HttpResponseRedirect("/login")
