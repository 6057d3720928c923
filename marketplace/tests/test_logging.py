"""Log lines carry a request id and never an ID token, session id or card number."""

import json
import logging

import pytest

from core.logging import ClientErrorsAsInfo, JsonFormatter, RequestIdFilter

pytestmark = pytest.mark.django_db

FAKE_JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1aWQtMTIzIn0.c2lnbmF0dXJlLXZhbHVl"


def _format(message: str, *args) -> dict:
    record = logging.LogRecord("kindly.test", logging.WARNING, __file__, 1, message, args, None)
    RequestIdFilter().filter(record)
    return json.loads(JsonFormatter().format(record))


@pytest.mark.parametrize(
    "secret",
    [
        f"Authorization: Bearer {FAKE_JWT}",
        f"token={FAKE_JWT}",
        "Cookie: sessionid=abcdef0123456789abcdef0123456789",
        "card 4242 4242 4242 4242 declined",
        "card 4000000000000002 declined",
        '{"idToken": "opaque-token-value"}',
    ],
)
def test_secrets_are_scrubbed_from_log_lines(secret):
    line = _format("sign-in failed: %s", secret)
    for leaked in (
        FAKE_JWT,
        "abcdef0123456789abcdef0123456789",
        "4242 4242 4242 4242",
        "4000000000000002",
        "opaque-token-value",
    ):
        assert leaked not in line["message"]
    assert line["level"] == "WARNING" and line["logger"] == "kindly.test"


def test_each_response_carries_a_request_id(client):
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert len(first) == 32 and first != second


def test_a_well_formed_proxy_request_id_is_kept_and_a_bad_one_replaced(client):
    assert client.get("/healthz", HTTP_X_REQUEST_ID="req-0123456789")["X-Request-ID"] == "req-0123456789"
    replaced = client.get("/healthz", HTTP_X_REQUEST_ID="bad id\nwith newline")["X-Request-ID"]
    assert replaced != "bad id\nwith newline" and len(replaced) == 32


def test_a_forbidden_request_is_logged_with_path_and_request_id_but_no_session(client, client_user, caplog):
    client.force_login(client_user)
    session_key = client.cookies["sessionid"].value
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/django-admin/", HTTP_X_REQUEST_ID="req-forbidden-1")
        response = client.get("/no-such-page", HTTP_X_REQUEST_ID="req-notfound-1")
    assert response.status_code == 404
    formatter = JsonFormatter()
    lines = []
    for record in caplog.records:
        RequestIdFilter().filter(record)
        lines.append(formatter.format(record))
    assert lines, "4xx responses are logged"
    assert all(session_key not in line for line in lines)
    parsed = [json.loads(line) for line in lines]
    assert any(p.get("path") == "/no-such-page" and p.get("status") == 404 for p in parsed)
    # Django logs the 4xx after the middleware chain returned: the id still reaches the line.
    assert {p["path"]: p["request_id"] for p in parsed}["/no-such-page"] == "req-notfound-1"


def test_an_api_refusal_is_logged_with_the_id_sent_back_to_the_browser(client, caplog):
    with caplog.at_level(logging.INFO, logger="django.request"):
        response = client.get("/api/auth/user")
    assert response.status_code == 401
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    RequestIdFilter().filter(record)
    assert json.loads(JsonFormatter().format(record))["request_id"] == response["X-Request-ID"]


def _request_record(status: int) -> logging.LogRecord:
    level = logging.ERROR if status >= 500 else logging.WARNING
    record = logging.LogRecord("django.request", level, __file__, 1, "Status %s: /x", (status,), None)
    record.status_code = status
    return record


@pytest.fixture
def root_level():
    root = logging.getLogger()
    before = root.level
    yield root.setLevel
    root.setLevel(before)


def test_expected_4xx_answers_are_quiet_at_the_warning_level_and_5xx_stay_errors(root_level):
    root_level(logging.WARNING)
    for status in (400, 401, 403, 404, 409):
        assert not ClientErrorsAsInfo().filter(_request_record(status))
    server_error = _request_record(500)
    assert ClientErrorsAsInfo().filter(server_error)
    assert json.loads(JsonFormatter().format(server_error))["level"] == "ERROR"
    other = logging.LogRecord("kindly.payments", logging.WARNING, __file__, 1, "Refund failed", (), None)
    assert ClientErrorsAsInfo().filter(other)
    assert json.loads(JsonFormatter().format(other))["level"] == "WARNING"


def test_4xx_answers_are_info_lines_when_every_request_is_logged(root_level):
    root_level(logging.INFO)
    record = _request_record(404)
    assert ClientErrorsAsInfo().filter(record)
    assert json.loads(JsonFormatter().format(record))["level"] == "INFO"


def test_django_records_reach_the_console_once_in_json():
    # Django's default plain-text console handler on the "django" logger printed every
    # 4xx a second time under DEBUG.
    assert logging.getLogger("django").handlers == []
    (console,) = logging.getLogger().handlers[:1]
    assert isinstance(console.formatter, JsonFormatter)
