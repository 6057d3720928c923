"""Structured log lines with a request id, and nothing secret in them.

RequestIdMiddleware gives each request an id (a proxy's X-Request-ID when it is well-formed)
and returns it in the X-Request-ID header; RequestIdFilter stamps it on every record;
ClientErrorsAsInfo makes the 4xx answers the app gives on purpose INFO lines rather than
warnings; JsonFormatter writes one JSON object per line and scrubs ID tokens, bearer
credentials, session ids and card numbers from the message, whatever logged them.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
_VALID_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

_SECRETS = [
    (re.compile(r"(?i)bearer\s+[A-Za-z0-9._~+/=-]+"), "Bearer [redacted]"),
    (re.compile(r"eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"), "[redacted-jwt]"),
    (
        re.compile(r"(?i)(sessionid|csrftoken|idtoken|id_token|token|password)(['\"]?\s*[:=]\s*['\"]?)[^\s'\",;&]+"),
        r"\1\2[redacted]",
    ),
    (re.compile(r"\b(?:\d[ -]?){12,18}\d\b"), "[redacted-card]"),
]


def scrub(text: str) -> str:
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        request_id = incoming if _VALID_ID.match(incoming) else uuid.uuid4().hex
        token = _request_id.set(request_id)
        request.request_id = request_id  # type: ignore[attr-defined]
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
        response["X-Request-ID"] = request_id
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        request_id = _request_id.get()
        if request_id == "-":
            # Django logs a 4xx/5xx answer ("Not Found: /x", django.request) after the whole
            # middleware chain has returned, so after RequestIdMiddleware reset the id: such a
            # record carries the request itself, which holds the id.
            request_id = getattr(getattr(record, "request", None), "request_id", "-")
        record.request_id = request_id
        return True


def _client_error(record: logging.LogRecord) -> bool:
    status = getattr(record, "status_code", None)
    return record.name == "django.request" and isinstance(status, int) and 400 <= status < 500


class ClientErrorsAsInfo(logging.Filter):
    """django.request's 4xx lines count as INFO: shown only when the log level is INFO or lower.

    A 400 for a mistyped form, a 401 before sign-in, a 403 or a 404 are answers the app gives on
    purpose, not faults: as warnings they filled the console under `make run` and pushed the
    demo sign-ins off screen. 5xx answers stay errors. The record itself is left as it is (other
    handlers see it unchanged); JsonFormatter writes such a line with the level INFO.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not _client_error(record) or logging.getLogger().isEnabledFor(logging.INFO)


_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id", "request", "server_time"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds"),
            "level": "INFO" if _client_error(record) else record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": scrub(record.getMessage()),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path"):
            line["path"] = request.path
            line["method"] = getattr(request, "method", "")
            user = getattr(request, "user", None)
            if user is not None and getattr(user, "is_authenticated", False):
                line["user_id"] = str(user.pk)
        for key, value in vars(record).items():
            if key not in _STANDARD and key != "status_code" and not key.startswith("_"):
                line[key] = scrub(str(value)) if isinstance(value, str) else value
        if getattr(record, "status_code", None):
            line["status"] = record.status_code
        if record.exc_info:
            line["exc"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, default=str)
