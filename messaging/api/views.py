"""The message calls of spec section 7. Thin: parse, call a selector or service, render."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import PublicUserSerializer
from accounts.models import User
from core.throttling import MessageSendThrottle
from messaging import selectors, services
from messaging.api.serializers import (
    MessageCreateSerializer,
    UnreadCountSerializer,
    conversation_payload,
)
from messaging.shapes import MessageSerializer


class MessageListView(generics.ListAPIView):
    """GET /api/messages/all: every message the caller sent or received, newest first (paged)."""

    serializer_class = MessageSerializer

    def get_queryset(self):
        return selectors.message_list_for_user(user=self.request.user)


class UnreadCountView(APIView):
    """GET /api/messages/unread-count: {count} (+ systemCount, bySender for the list badges)."""

    @extend_schema(responses=UnreadCountSerializer)
    def get(self, request: Request) -> Response:
        summary = selectors.unread_summary(user_id=request.user.pk)
        return Response(UnreadCountSerializer(summary.as_payload()).data)


class ConversationView(APIView):
    """GET /api/messages/conversation/{otherUserId}: the caller's messages with that person.

    Marks the ones addressed to the caller read (and pushes the new unread count). An unknown
    user is a 404; anyone else answers only the caller's own messages with them.
    """

    @extend_schema(responses=MessageSerializer(many=True))
    def get(self, request: Request, other_user_id: str) -> Response:
        if "\x00" in other_user_id or len(other_user_id) > 128:
            raise Http404  # no such uid can exist (and PostgreSQL refuses NUL in a query)
        other = get_object_or_404(User, pk=other_user_id)
        services.conversation_mark_read(user=request.user, other=other)
        messages = selectors.conversation_messages(user=request.user, other=other)
        return Response(MessageSerializer(messages, many=True).data)


class ThreadView(APIView):
    """GET /api/messages/booking/{bookingId}: the conversation of the booking's recipient and
    provider (every visit of the pair; each message keeps its bookingId), as everyone in it sees
    it (the booked provider and every member of the recipient's circle), oldest first; each
    message names its sender. Marks the caller's copies read (and pushes the new unread count). Anyone
    else, a member removed from the circle included, gets a 404."""

    @extend_schema(responses=MessageSerializer(many=True))
    def get(self, request: Request, booking_id: int) -> Response:
        booking = selectors.thread_booking_get(user=request.user, booking_id=booking_id)
        services.thread_mark_read(user=request.user, booking=booking)
        messages = selectors.thread_messages(booking=booking)
        return Response(MessageSerializer(messages, many=True).data)


class SystemNotificationsView(APIView):
    """GET /api/messages/system-notifications: the caller's system notifications, oldest first.

    Fetching them is reading them: they are marked read and the unread count is pushed. The
    messages page keeps the open conversation on screen until the user leaves it.
    """

    @extend_schema(responses=MessageSerializer(many=True))
    def get(self, request: Request) -> Response:
        services.system_notifications_mark_read(user=request.user)
        messages = selectors.system_notifications(user=request.user)
        return Response(MessageSerializer(messages, many=True).data)


class ConversationListView(APIView):
    """GET /api/messages/conversations: the caller's conversations, as the messages page lists
    them (one per care recipient and provider pair the caller takes part in, every visit of the
    pair in bookings, plus support threads). Not in the spec:
    the page refreshes its list with it when a booking it does not know yet changes (a request was
    just accepted)."""

    @extend_schema(
        responses=inline_serializer(
            "Conversation",
            many=True,
            fields={
                "user": PublicUserSerializer(),
                "role": serializers.ChoiceField(choices=["provider", "client", "support"]),
                "bookingId": serializers.IntegerField(allow_null=True),
                "thread": serializers.BooleanField(),
                "recipient": inline_serializer(
                    "ConversationRecipient",
                    allow_null=True,
                    fields={
                        "id": serializers.IntegerField(),
                        "fullName": serializers.CharField(),
                        "timeZone": serializers.CharField(help_text="Her IANA zone, e.g. America/New_York."),
                    },
                ),
                "bookings": inline_serializer(
                    "ConversationBooking",
                    many=True,
                    fields={
                        "id": serializers.IntegerField(),
                        "title": serializers.CharField(),
                        "scheduledDate": serializers.DateField(),
                        "status": serializers.CharField(),
                    },
                ),
            },
        )
    )
    def get(self, request: Request) -> Response:
        me = request.user
        return Response([conversation_payload(c, me=me) for c in selectors.conversation_list(user=me)])


class MessageCreateView(APIView):
    """POST /api/messages {receiverId, content, bookingId}: 201 with the message."""

    throttle_classes = [MessageSendThrottle]

    @extend_schema(request=MessageCreateSerializer, responses={201: MessageSerializer})
    def post(self, request: Request) -> Response:
        data = MessageCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = services.message_send(
            sender=request.user,
            receiver_id=data.validated_data["receiverId"],
            content=data.validated_data["content"],
            booking_id=data.validated_data.get("bookingId"),
        )
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)
