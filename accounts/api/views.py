"""The accounts API: session sync with Firebase, the signed-in profile, user type, emergency contacts."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import login, logout
from django.http import HttpResponseRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.api.serializers import (
    EmergencyContactInputSerializer,
    EmergencyContactSerializer,
    SessionInputSerializer,
    UserSerializer,
    UserTypeInputSerializer,
)
from accounts.firebase import AccountDisabled, InvalidIdToken, verify_id_token
from accounts.models import User
from marketplace.api import ArrayLimitOffsetPagination
from marketplace.throttling import SignInThrottle

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
        )
        if not user.is_active:
            return _unauthorized()
        # A fresh session key on every sign-in (no fixation; login() keeps the key when the same
        # user signs in again), and login() rotates the CSRF token.
        request._request.session.cycle_key()
        login(request._request, user)
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
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)


class UserTypeView(APIView):
    """PUT /api/auth/user-type {userType}: client <-> provider. Admins 403; other values 400."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_user_type_update", request=UserTypeInputSerializer, responses=UserSerializer)
    def put(self, request: Request) -> Response:
        data = UserTypeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_type_switch(user=request.user, user_type=data.validated_data["userType"])
        return Response(UserSerializer(user).data)


def api_login_redirect(request) -> HttpResponseRedirect:
    """GET /api/login: where pages send a browser whose session was found lost."""
    return HttpResponseRedirect("/login")


class EmergencyContactListView(APIView):
    """GET/POST /api/emergency-contacts: the signed-in user's own contacts."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="emergency_contacts_list",
        parameters=[
            OpenApiParameter("limit", OpenApiTypes.INT, description="Page size (default 50, at most 200)."),
            OpenApiParameter("offset", OpenApiTypes.INT, description="Rows to skip."),
        ],
        responses=EmergencyContactSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        paginator = ArrayLimitOffsetPagination()
        page = paginator.paginate_queryset(selectors.emergency_contact_list(user=request.user), request, view=self)
        return paginator.get_paginated_response(EmergencyContactSerializer(page, many=True).data)

    @extend_schema(
        operation_id="emergency_contacts_create",
        request=EmergencyContactInputSerializer,
        responses={201: EmergencyContactSerializer},
    )
    def post(self, request: Request) -> Response:
        data = EmergencyContactInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        contact = services.emergency_contact_create(user=request.user, **data.validated_data)
        return Response(EmergencyContactSerializer(contact).data, status=status.HTTP_201_CREATED)


class EmergencyContactDetailView(APIView):
    """GET/PUT/PATCH/DELETE /api/emergency-contacts/{id}: one of the caller's own contacts (else 404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="emergency_contacts_retrieve", responses=EmergencyContactSerializer)
    def get(self, request: Request, pk: int) -> Response:
        contact = selectors.emergency_contact_get(user=request.user, pk=pk)
        return Response(EmergencyContactSerializer(contact).data)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        contact = selectors.emergency_contact_get(user=request.user, pk=pk)
        data = EmergencyContactInputSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        contact = services.emergency_contact_update(contact=contact, **data.validated_data)
        return Response(EmergencyContactSerializer(contact).data)

    @extend_schema(
        operation_id="emergency_contacts_update",
        request=EmergencyContactInputSerializer,
        responses=EmergencyContactSerializer,
    )
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @extend_schema(
        operation_id="emergency_contacts_partial_update",
        request=EmergencyContactInputSerializer(partial=True),
        responses=EmergencyContactSerializer,
    )
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    @extend_schema(operation_id="emergency_contacts_destroy", responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        contact = selectors.emergency_contact_get(user=request.user, pk=pk)
        services.emergency_contact_delete(contact=contact)
        return Response(status=status.HTTP_204_NO_CONTENT)
