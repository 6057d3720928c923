"""API conventions shared by every app: error bodies, list paging, strict input."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from marketplace.errors import DomainError

logger = logging.getLogger(__name__)


def _flatten(detail: Any) -> dict[str, list[str]]:
    """DRF's nested error detail -> {field: [messages]}; non-field errors under "non_field_errors"."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            if isinstance(value, dict):
                for sub, msgs in _flatten(value).items():
                    out[f"{key}.{sub}"] = msgs
            elif isinstance(value, list):
                msgs: list[str] = []
                for item in value:
                    if isinstance(item, dict):
                        for sub, sub_msgs in _flatten(item).items():
                            out[f"{key}.{sub}"] = sub_msgs
                    else:
                        msgs.append(str(item))
                if msgs:
                    out[str(key)] = msgs
            else:
                out[str(key)] = [str(value)]
        return out
    if isinstance(detail, list):
        return {"non_field_errors": [str(d) for d in detail]}
    return {"non_field_errors": [str(detail)]}


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """Every API error answers {"message": str, "errors": {field: [str]}}."""
    if isinstance(exc, DomainError):
        return Response({"message": exc.message, "errors": exc.errors}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait) if exc.wait else 60
        response.data = {
            "message": f"Too many requests. Please wait {wait} seconds and try again.",
            "errors": {},
        }
    elif isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = next(iter(errors.values()), ["Invalid input."])
        message = first[0] if len(errors) == 1 else "Please correct the highlighted fields."
        response.data = {"message": message, "errors": errors}
    elif isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        # The pages recognise exactly this text as "signed out" (spec section 8).
        response.status_code = 401
        response.data = {"message": "Unauthorized", "errors": {}}
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        response.data = {"message": str(detail), "errors": {}}
    return response


class ArrayLimitOffsetPagination(LimitOffsetPagination):
    """?limit= and ?offset= paging that still answers a bare JSON array, as the pages expect.

    The total goes in the X-Total-Count header.
    """

    default_limit = 50
    max_limit = 200
    # Far beyond any list here, and well inside the 64-bit integers SQLite and PostgreSQL take
    # for OFFSET: a larger offset is refused (400) instead of reaching the database (500).
    max_offset = 1_000_000
    max_offset_message = "Offset can be at most 1,000,000."

    def get_limit(self, request) -> int:  # type: ignore[override]
        raw = request.query_params.get(self.limit_query_param)
        if raw is None:
            return self.default_limit
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise exceptions.ValidationError({"limit": ["Enter a whole number."]}) from None
        if value < 1:
            raise exceptions.ValidationError({"limit": ["Ensure this value is at least 1."]})
        return min(value, self.max_limit)

    def get_offset(self, request) -> int:  # type: ignore[override]
        raw = request.query_params.get(self.offset_query_param)
        if raw is None:
            return 0
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise exceptions.ValidationError({"offset": ["Enter a whole number."]}) from None
        if value < 0:
            raise exceptions.ValidationError({"offset": ["Ensure this value is at least 0."]})
        if value > self.max_offset:
            raise exceptions.ValidationError({"offset": [self.max_offset_message]})
        return value

    def paginate_queryset(self, queryset, request, view=None) -> list:  # type: ignore[override]
        """The page first, then the total. A short, non-empty page (or a short first page) ends
        the list, so its total is offset + its length and needs no COUNT query: most users' lists
        (a client's few bookings and requests) fit on one page."""
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        page = list(queryset[self.offset : self.offset + self.limit])
        if len(page) < self.limit and (page or self.offset == 0):
            self.count = self.offset + len(page)
        else:
            self.count = self.get_count(queryset)
        return page

    def get_paginated_response(self, data) -> Response:
        return Response(data, headers={"X-Total-Count": str(self.count)})

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return schema

    def get_schema_operation_parameters(self, view) -> list[dict]:
        """limit and offset with their bounds, so the schema (and schemathesis) knows them."""
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1},
            self.offset_query_param: {"minimum": 0, "maximum": self.max_offset},
        }
        for parameter in parameters:
            parameter["schema"] = {**parameter["schema"], **bounds.get(parameter["name"], {})}
        return parameters


class StrictSerializer(serializers.Serializer):
    """Input serializer that rejects fields it does not know (400, not silently ignored)."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["Expected a JSON object."]})
        unknown = set(data) - set(self.fields)
        if unknown:
            raise exceptions.ValidationError({name: ["Unknown field."] for name in sorted(unknown)})
        return super().to_internal_value(data)


_REPRESENTERS: dict[type[serializers.BaseSerializer], serializers.BaseSerializer] = {}


def represent(serializer_class: type[serializers.BaseSerializer], instance: Any) -> dict:
    """instance in the shape of serializer_class, through one reused serializer per class.

    For nested shapes chosen per row (SerializerMethodField): building a serializer per row
    rebuilds all its fields every time, which dominated list endpoints' cost. Only for
    serializers that need no context.
    """
    serializer = _REPRESENTERS.get(serializer_class)
    if serializer is None:
        serializer = _REPRESENTERS.setdefault(serializer_class, serializer_class())
    return serializer.to_representation(instance)
