"""Lists answer a bare array page with the full total in X-Total-Count (marketplace/api.py).

The page is read first; a page that ends the list gives the total without a COUNT query."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


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
