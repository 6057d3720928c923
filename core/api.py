"""API conventions shared by every app: error bodies, list paging, strict input."""

from __future__ import annotations

import copy
import functools
import logging
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from rest_framework import exceptions, serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import SEVERAL_PROBLEMS, DomainError

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


def _words(errors: dict[str, Any]) -> dict[str, Any]:
    """A domain error's {field: [messages]} with its lazy messages put into the active language
    (other values, such as a list of dates, as they are)."""
    return {
        field: [str(item) if isinstance(item, Promise) else item for item in value]
        if isinstance(value, list)
        else str(value)
        if isinstance(value, Promise)
        else value
        for field, value in errors.items()
    }


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """Every API error answers {"message": str, "errors": {field: [str]}}, in the request's
    language (its messages are marked for translation; DRF's and Django's own come translated by
    their catalogues)."""
    if isinstance(exc, DomainError):
        return Response({"message": str(exc.message), "errors": _words(exc.errors)}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(gettext("Not found."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait) if exc.wait else 60
        response.data = {
            "message": ngettext(
                "Too many requests. Please wait %(wait)s second and try again.",
                "Too many requests. Please wait %(wait)s seconds and try again.",
                wait,
            )
            % {"wait": wait},
            "errors": {},
        }
    elif isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = next(iter(errors.values()), [gettext("Invalid input.")])
        message = first[0] if len(errors) == 1 else str(SEVERAL_PROBLEMS)
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

    The total goes in the X-Total-Count header, the next and previous pages in Link.
    """

    default_limit = 50
    max_limit = 200
    # Far beyond any list here, and well inside the 64-bit integers SQLite and PostgreSQL take
    # for OFFSET: a larger offset is refused (400) instead of reaching the database (500).
    max_offset = 1_000_000
    max_offset_message = gettext_lazy("Offset can be at most 1,000,000.")

    def get_limit(self, request) -> int:  # type: ignore[override]
        raw = request.query_params.get(self.limit_query_param)
        if raw is None:
            return self.default_limit
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise exceptions.ValidationError({"limit": [gettext("Enter a whole number.")]}) from None
        if value < 1:
            raise exceptions.ValidationError({"limit": [gettext("Ensure this value is at least 1.")]})
        return min(value, self.max_limit)

    def get_offset(self, request) -> int:  # type: ignore[override]
        raw = request.query_params.get(self.offset_query_param)
        if raw is None:
            return 0
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise exceptions.ValidationError({"offset": [gettext("Enter a whole number.")]}) from None
        if value < 0:
            raise exceptions.ValidationError({"offset": [gettext("Ensure this value is at least 0.")]})
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
        headers = {"X-Total-Count": str(self.count)}
        # The next and previous pages (RFC 8288), for clients that walk a list without counting.
        links = [(self.get_next_link(), "next"), (self.get_previous_link(), "prev")]
        link = ", ".join(f'<{url}>; rel="{rel}"' for url, rel in links if url)
        if link:
            headers["Link"] = link
        return Response(data, headers=headers)

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
            raise exceptions.ValidationError({"non_field_errors": [gettext("Expected a JSON object.")]})
        unknown = set(data) - set(self.fields)
        if unknown:
            raise exceptions.ValidationError({name: [gettext("Unknown field.")] for name in sorted(unknown)})
        return super().to_internal_value(data)


# Plain messages for input limits ----------------------------------------------------------------
# A limit is told in the words of the form: "Description can be at most 5,000 characters.", not
# DRF's "Ensure this field has no more than 5000 characters.". DRF builds a field's limit
# validators from its error_messages in __init__, so the messages are set before that.


def as_count(value: Any) -> str:
    """5000 -> "5,000"."""
    number = Decimal(value)
    return f"{number:,.0f}" if number == number.to_integral_value() else f"{number:,}"


def as_dollars(value: Any) -> str:
    """99999 -> "$99,999"; 12.5 -> "$12.50"."""
    number = Decimal(value)
    return f"${number:,.0f}" if number == number.to_integral_value() else f"${number:,.2f}"


def as_minutes(value: Any) -> str:
    """1440 -> "24 hours"; 60 -> "1 hour"; 15 -> "15 minutes" (in the active language)."""
    minutes = int(value)
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": f"{hours:,}"}
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": f"{minutes:,}"}


_DIGIT_CODES = ("max_digits", "max_whole_digits", "max_string_length")


class PlainMessages:
    """Field mixin: a field given a `label` answers its limits in plain words that name it.

    Text: "Title can be at most 200 characters." / "... must be at least 10 characters."
    Numbers: "Budget can be at most $99,999." / "Budget cannot be negative." / "... must be at
    least 15 minutes", the number written by `limit_format` (as_count, as_dollars, as_minutes).
    Missing, blank or null: "Title is required.". Too many digits reads as the maximum.
    Messages passed in error_messages win (the spec's own texts).
    """

    limit_format: Callable[[Any], str] = staticmethod(as_count)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        limit_format = kwargs.pop("limit_format", None) or type(self).limit_format
        label = kwargs.get("label")
        if label:
            given = kwargs.get("error_messages") or {}
            messages = {**_plain_messages(self, label, limit_format, kwargs), **given}
            if "max_value" in messages:
                for code in _DIGIT_CODES:
                    if code not in given:
                        messages[code] = messages["max_value"]
            kwargs["error_messages"] = messages
        super().__init__(*args, **kwargs)


# The plain words of a labelled field (the forms fill the same blanks: manage.py export_rules).
# Lazy, like the labels: a field is built once, at import; its words are read in each request's
# language.
PLAIN_REQUIRED = gettext_lazy("{label} is required.")
PLAIN_MAX_LENGTH = gettext_lazy("{label} can be at most {max_length} characters.")
PLAIN_MIN_LENGTH = gettext_lazy("{label} must be at least {min_length} characters.")
PLAIN_MAX_VALUE = gettext_lazy("{label} can be at most {limit}.")
PLAIN_MIN_VALUE = gettext_lazy("{label} must be at least {limit}.")
PLAIN_NOT_NEGATIVE = gettext_lazy("{label} cannot be negative.")
PLAIN_MAX_DECIMAL_PLACES = gettext_lazy("{label} can have at most {places} decimal places.")


def _plain_messages(field: Any, label: Any, limit_format: Callable[[Any], str], kwargs: dict) -> dict[str, Any]:
    # The limit's words are written when read (as_minutes says "hours" in the reader's language).
    limit_words = lazy(limit_format, str)
    messages: dict[str, Any] = {
        code: format_lazy(PLAIN_REQUIRED, label=label) for code in ("required", "blank", "null")
    }
    if isinstance(field, serializers.CharField):
        if kwargs.get("max_length") is not None:
            messages["max_length"] = format_lazy(
                PLAIN_MAX_LENGTH, label=label, max_length=as_count(kwargs["max_length"])
            )
        if kwargs.get("min_length") is not None:
            messages["min_length"] = format_lazy(
                PLAIN_MIN_LENGTH, label=label, min_length=as_count(kwargs["min_length"])
            )
        return messages
    max_value, min_value = kwargs.get("max_value"), kwargs.get("min_value")
    if max_value is None and isinstance(field, serializers.DecimalField):
        digits, places = kwargs.get("max_digits", 8), kwargs.get("decimal_places", 2)
        max_value = Decimal(10) ** (digits - places) - Decimal(10) ** -places
    if max_value is not None:
        messages["max_value"] = format_lazy(PLAIN_MAX_VALUE, label=label, limit=limit_words(max_value))
    if min_value is not None:
        messages["min_value"] = (
            format_lazy(PLAIN_NOT_NEGATIVE, label=label)
            if min_value == 0
            else format_lazy(PLAIN_MIN_VALUE, label=label, limit=limit_words(min_value))
        )
    if isinstance(field, serializers.DecimalField):
        places = kwargs.get("decimal_places", 2)
        messages["max_decimal_places"] = format_lazy(PLAIN_MAX_DECIMAL_PLACES, label=label, places=places)
    return messages


class PlainCharField(PlainMessages, serializers.CharField):
    pass


class PlainEmailField(PlainMessages, serializers.EmailField):
    pass


class PlainIntegerField(PlainMessages, serializers.IntegerField):
    pass


_LIMIT_ATTRIBUTES = (
    ("min_length", "minLength"),
    ("max_length", "maxLength"),
    ("min_value", "min"),
    ("max_value", "max"),
)


def input_limits(serializer_class: type[serializers.Serializer]) -> dict[str, dict[str, Any]]:
    """An input serializer's limits and their messages, for the page's form to mirror.

    {"description": {"minLength": 10, "minLengthMessage": "...", "maxLength": 5000,
    "maxLengthMessage": "Description can be at most 5,000 characters."}, ...}: the same numbers and
    words the API answers with, so the form and the server cannot drift apart; in the active language.
    """
    return copy.deepcopy(_input_limits(serializer_class, translation.get_language()))


@functools.cache  # fixed per class and language: built once per process
def _input_limits(serializer_class: type[serializers.Serializer], language: str | None) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, field in serializer_class().fields.items():
        entry: dict[str, Any] = {}
        for attribute, key in _LIMIT_ATTRIBUTES:
            value = getattr(field, attribute, None)
            if value is None or attribute not in field.error_messages:
                continue
            number = Decimal(value)
            entry[key] = int(number) if number == number.to_integral_value() else float(number)
            entry[f"{key}Message"] = str(field.error_messages[attribute]).format(**{attribute: value})
        if entry:
            out[name] = entry
    return out


def any_of_for_supersets(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: a polymorphic field whose shapes nest (a request's
    client: the full summary holds every field of the first-name-and-initial shape) matches
    *any* of them, not exactly one: OpenAPI's oneOf would reject every full summary."""
    for name in ANY_OF_COMPONENTS:
        schema = result.get("components", {}).get("schemas", {}).get(name)
        if schema and "oneOf" in schema:
            schema["anyOf"] = schema.pop("oneOf")
    return result


ANY_OF_COMPONENTS = ("RequestClient",)
