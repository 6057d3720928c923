"""Care-circle endpoints: thin views over circles.selectors and circles.services.

A non-member gets 404, a member doing an organizer's action 403, a wrong state 409 (the
services raise them; core.api's exception handler renders them).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import (
    EmergencyContactCreateSerializer,
    EmergencyContactInputSerializer,
    EmergencyContactSerializer,
)
from circles import selectors, services
from circles.api.serializers import (
    CareRecipientCreateSerializer,
    CareRecipientInputSerializer,
    CareRecipientSerializer,
    CircleInvitationSerializer,
    CircleMemberSerializer,
    InvitationAcceptInputSerializer,
    InvitationInputSerializer,
    MemberRoleInputSerializer,
)
from core.api import ArrayLimitOffsetPagination


def _recipient(request: Request, pk: int) -> dict:
    recipient = selectors.care_circle_get(user=request.user, pk=pk)
    return CareRecipientSerializer(recipient, context={"viewer_id": request.user.pk}).data


class CareCircleView(APIView):
    """GET /api/care-circle: every recipient in whose circle the caller is, with the circle."""

    @extend_schema(operation_id="care_circle_list", responses=CareRecipientSerializer(many=True))
    def get(self, request: Request) -> Response:
        recipients = selectors.care_circle_list(user=request.user)
        return Response(CareRecipientSerializer(recipients, many=True, context={"viewer_id": request.user.pk}).data)


class CareRecipientCreateView(APIView):
    """POST /api/care-recipients: add someone you care for (or yourself); you organize their circle."""

    @extend_schema(
        operation_id="care_recipients_create",
        request=CareRecipientCreateSerializer,
        responses={201: CareRecipientSerializer},
    )
    def post(self, request: Request) -> Response:
        data = CareRecipientCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = {"first_name": "", **data.validated_data}
        recipient = services.recipient_create(actor=request.user, **fields)
        return Response(_recipient(request, recipient.pk), status=status.HTTP_201_CREATED)


class CareRecipientDetailView(APIView):
    """PATCH /api/care-recipients/{id}: organizers change the recipient's details."""

    @extend_schema(
        operation_id="care_recipients_partial_update",
        request=CareRecipientInputSerializer,
        responses=CareRecipientSerializer,
    )
    def patch(self, request: Request, pk: int) -> Response:
        data = CareRecipientInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.recipient_update(actor=request.user, recipient_id=pk, **data.validated_data)
        return Response(_recipient(request, pk))


class InvitationCreateView(APIView):
    """POST /api/care-recipients/{id}/invitations: organizers invite an email address."""

    @extend_schema(
        operation_id="care_invitations_create",
        request=InvitationInputSerializer,
        responses={201: CircleInvitationSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = InvitationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invitation_create(actor=request.user, recipient_id=pk, **data.validated_data)
        return Response(CircleInvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InvitationDetailView(APIView):
    """DELETE /api/care-invitations/{id}: organizers withdraw a pending invitation."""

    @extend_schema(operation_id="care_invitations_destroy", responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        services.invitation_revoke(actor=request.user, invitation_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(APIView):
    """POST /api/care-invitations/accept {token}: join the circle the link names."""

    @extend_schema(
        operation_id="care_invitations_accept",
        request=InvitationAcceptInputSerializer,
        responses=CareRecipientSerializer,
    )
    def post(self, request: Request) -> Response:
        data = InvitationAcceptInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = services.invitation_accept(user=request.user, token=data.validated_data["token"])
        return Response(_recipient(request, member.recipient_id))


class MemberDetailView(APIView):
    """PATCH (role, organizers) and DELETE (organizers remove; anyone leaves) a circle member."""

    @extend_schema(
        operation_id="care_members_partial_update",
        request=MemberRoleInputSerializer,
        responses=CircleMemberSerializer,
    )
    def patch(self, request: Request, pk: int, member_id: int) -> Response:
        data = MemberRoleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = services.member_set_role(
            actor=request.user, recipient_id=pk, member_id=member_id, role=data.validated_data["role"]
        )
        return Response(CircleMemberSerializer(member).data)

    @extend_schema(operation_id="care_members_destroy", responses={204: None})
    def delete(self, request: Request, pk: int, member_id: int) -> Response:
        services.member_remove(actor=request.user, recipient_id=pk, member_id=member_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmergencyContactListView(APIView):
    """GET/POST /api/emergency-contacts: a care recipient's contacts (?recipientId=; default the
    caller themself). Members of the circle read them; organizers add them."""

    @extend_schema(
        operation_id="emergency_contacts_list",
        parameters=[
            OpenApiParameter(
                "recipientId", OpenApiTypes.INT, description="The care recipient (default: you yourself)."
            ),
            OpenApiParameter("limit", OpenApiTypes.INT, description="Page size (default 50, at most 200)."),
            OpenApiParameter("offset", OpenApiTypes.INT, description="Rows to skip."),
        ],
        responses=EmergencyContactSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        contacts = selectors.emergency_contact_list_for(
            user=request.user, recipient_id=request.query_params.get("recipientId")
        )
        paginator = ArrayLimitOffsetPagination()
        page = paginator.paginate_queryset(contacts, request, view=self)
        return paginator.get_paginated_response(EmergencyContactSerializer(page, many=True).data)

    @extend_schema(
        operation_id="emergency_contacts_create",
        request=EmergencyContactCreateSerializer,
        responses={201: EmergencyContactSerializer},
    )
    def post(self, request: Request) -> Response:
        data = EmergencyContactCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        contact = services.emergency_contact_create(actor=request.user, **data.validated_data)
        return Response(EmergencyContactSerializer(contact).data, status=status.HTTP_201_CREATED)


class EmergencyContactDetailView(APIView):
    """GET/PUT/PATCH/DELETE /api/emergency-contacts/{id}: members read, organizers change (else 403);
    a contact outside the caller's circles is a 404."""

    @extend_schema(operation_id="emergency_contacts_retrieve", responses=EmergencyContactSerializer)
    def get(self, request: Request, pk: int) -> Response:
        contact = selectors.emergency_contact_get_for(user=request.user, pk=pk)
        return Response(EmergencyContactSerializer(contact).data)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        selectors.emergency_contact_get_for(user=request.user, pk=pk)
        data = EmergencyContactInputSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        contact = services.emergency_contact_update(actor=request.user, contact_id=pk, **data.validated_data)
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
        selectors.emergency_contact_get_for(user=request.user, pk=pk)
        services.emergency_contact_delete(actor=request.user, contact_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
