"""Lists answer a bare array page with the full total in X-Total-Count (core/api.py).

The page is read first; a page that ends the list gives the total without a COUNT query.
Also run on SQLite (`make pytest-sqlite`): an offset beyond its integers once answered 500."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator

from core.api import ArrayLimitOffsetPagination
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def _paged_lists() -> list[str]:
    """Every documented GET that takes ?offset= (each paged list of the API)."""
    spec = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        path
        for path, item in spec["paths"].items()
        if any(p["name"] == "offset" for p in item.get("get", {}).get("parameters", []))
    )


PAGED_LISTS = _paged_lists()


@pytest.mark.parametrize(
    ("query", "page_length", "counted"),
    [
        ("", 7, False),  # the default page (50) holds all seven
        ("?limit=7", 7, True),  # a full page may have more behind it: counted
        ("?limit=3", 3, True),
        ("?limit=3&offset=3", 3, True),
        ("?limit=3&offset=6", 1, False),  # the last, short page ends the list
        ("?limit=10&offset=2", 5, False),
        ("?offset=7", 0, True),  # past the end: nothing on the page says how many there are
        ("?offset=50", 0, True),
    ],
)
def test_total_is_the_whole_list_whatever_the_page(client, client_user, query, page_length, counted):
    requests = ServiceRequestFactory.create_batch(7, client=client_user)
    ServiceRequestFactory.create_batch(2)  # someone else's: never counted
    client.force_login(client_user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/service-requests{query}")
    assert response.status_code == 200
    assert len(response.json()) == page_length
    assert response["X-Total-Count"] == "7"
    assert {r["id"] for r in response.json()} <= {r.pk for r in requests}
    count_queries = [q for q in queries.captured_queries if "COUNT(*)" in q["sql"]]
    assert len(count_queries) == (1 if counted else 0)


def test_an_empty_list_totals_zero_without_counting(client, client_user):
    client.force_login(client_user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/service-requests")
    assert response.json() == []
    assert response["X-Total-Count"] == "0"
    assert not [q for q in queries.captured_queries if "COUNT(*)" in q["sql"]]


def test_pages_walk_the_list_in_order_without_gaps(client, client_user):
    ServiceRequestFactory.create_batch(7, client=client_user)
    client.force_login(client_user)
    whole = [r["id"] for r in client.get("/api/service-requests").json()]
    walked = []
    for offset in range(0, 9, 3):
        walked += [r["id"] for r in client.get(f"/api/service-requests?limit=3&offset={offset}").json()]
    assert walked == whole


def test_the_paged_lists_are_found():
    assert {"/api/service-categories", "/api/service-requests", "/api/admin/service-requests", "/api/providers"} <= set(
        PAGED_LISTS
    )


@pytest.mark.parametrize("path", PAGED_LISTS)
@pytest.mark.parametrize(
    ("offset", "message"),
    [
        ("68272923021545884574810112", "Offset can be at most 1,000,000."),  # beyond 64 bits: was a 500 on SQLite
        ("9223372036854775807", "Offset can be at most 1,000,000."),  # the largest 64-bit integer
        ("1000001", "Offset can be at most 1,000,000."),
        ("-1", "Ensure this value is at least 0."),
    ],
)
def test_an_offset_out_of_bounds_is_a_400_on_every_list(path, offset, message, admin_user, verified_provider):
    client = Client()
    client.force_login(admin_user)  # an admin may call every list
    url = path.replace("{id}", str(verified_provider.pk))  # a list under an object: a provider's reviews
    assert "{" not in url, url

    response = client.get(url, {"offset": offset})

    assert response.status_code == 400, response.content
    assert response.json() == {"message": message, "errors": {"offset": [message]}}


@pytest.mark.parametrize("limit", ["68272923021545884574810112", "9223372036854775807"])
def test_a_huge_limit_is_capped_at_the_largest_page(client, client_user, limit):
    ServiceRequestFactory.create_batch(3, client=client_user)
    client.force_login(client_user)

    response = client.get("/api/service-requests", {"limit": limit, "offset": "1000000"})

    assert response.status_code == 200
    assert response.json() == []
    assert response["X-Total-Count"] == "3"


def test_the_schema_states_the_bounds():
    limit, offset = ArrayLimitOffsetPagination().get_schema_operation_parameters(view=None)
    assert (limit["name"], limit["schema"]) == ("limit", {"type": "integer", "minimum": 1})
    assert (offset["name"], offset["schema"]) == ("offset", {"type": "integer", "minimum": 0, "maximum": 1_000_000})
