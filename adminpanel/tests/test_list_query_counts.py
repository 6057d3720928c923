"""Every list endpoint runs a fixed number of queries, whether it returns 1 row or 50."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from core import listcache
from marketplace.testing.api import call
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ServiceCategory
from requests_app.tests.factories import ServiceRequestFactory

MAX_QUERIES = 8
# A helper's open requests are those she can take: her profile, weekly hours, time off and visits are
# read once for the whole list (requests_app.selectors.lists._open_of_others), whatever its length.
MORE_QUERIES = {"open_requests-provider": 2}


def _make_rows(kind: str, n: int, *, client_user, verified_provider):
    if kind == "providers":
        VerifiedProviderFactory.create_batch(n)
    elif kind == "categories":
        ServiceCategory.objects.all().delete()
        for i in range(n):
            ServiceCategory.objects.create(slug=f"cat-{i}", name=f"Category {i}")
    elif kind == "reviews":
        for _ in range(n):
            ReviewFactory(booking__provider=verified_provider, booking__status=BookingStatus.COMPLETED)
    elif kind == "own_requests":
        ServiceRequestFactory.create_batch(n, client=client_user)
    elif kind == "open_requests":
        ServiceRequestFactory.create_batch(n, client=UserFactory())
    elif kind == "bookings":
        for _ in range(n):
            BookingFactory(service_request__client=client_user, provider=verified_provider)


# (endpoint, who calls it, which rows it lists)
ENDPOINTS = [
    ("/api/providers", None, "providers"),
    ("/api/service-categories", None, "categories"),
    ("/api/providers/{provider}/reviews", None, "reviews"),
    ("/api/service-requests", "client", "own_requests"),
    ("/api/service-requests", "provider", "open_requests"),
    ("/api/service-requests", "admin", "own_requests"),
    ("/api/bookings", "client", "bookings"),
    ("/api/bookings", "provider", "bookings"),
    ("/api/admin/providers", "admin", "providers"),
    ("/api/admin/bookings", "admin", "bookings"),
    ("/api/admin/service-requests", "admin", "open_requests"),
]


@pytest.mark.parametrize(("url", "role", "kind"), ENDPOINTS, ids=[f"{u}-{r}" for u, r, _ in ENDPOINTS])
def test_list_endpoint_query_count_does_not_grow_with_rows(
    client, client_user, verified_provider, admin_user, django_assert_max_num_queries, url, role, kind
):
    user = {"client": client_user, "provider": verified_provider.user, "admin": admin_user, None: None}[role]
    if user is not None:
        client.force_login(user)
    url = url.format(provider=verified_provider.pk)
    counts = []
    for total in (1, 40):  # both a short page: the list ends, so neither needs a COUNT
        _make_rows(kind, total - (counts and 1 or 0), client_user=client_user, verified_provider=verified_provider)
        allowed = MAX_QUERIES + MORE_QUERIES.get(f"{kind}-{role}", 0)
        listcache.forget()  # both read from the database (the session's user too), not from the cache
        with django_assert_max_num_queries(allowed), CaptureQueriesContext(connection) as queries:
            response = call(client, "GET", url)
        assert response.status_code == 200
        counts.append(len(queries))
        if kind != "categories":
            assert len(response.json()) >= total
    assert counts[0] == counts[1]
