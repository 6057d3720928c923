"""The OpenAPI schema and its browsable docs are served, and list every marketplace operation."""

import yaml

EXPECTED = {
    ("/api/providers", "get"),
    ("/api/providers/{id}/reviews", "get"),
    ("/api/provider/profile", "get"),
    ("/api/provider/profile", "post"),
    ("/api/service-categories", "get"),
    ("/api/service-requests", "get"),
    ("/api/service-requests", "post"),
    ("/api/service-requests/{id}", "get"),
    ("/api/service-requests/{id}", "put"),
    ("/api/service-requests/{id}", "delete"),
    ("/api/service-requests/{id}/accept", "post"),
    ("/api/bookings", "get"),
    ("/api/bookings/{id}", "get"),
    ("/api/bookings/{id}/cancel", "post"),
    ("/api/bookings/{id}/complete", "post"),
    ("/api/bookings/{id}/review", "post"),
    ("/api/admin/providers", "get"),
    ("/api/admin/providers/{id}/status", "put"),
    ("/api/admin/bookings", "get"),
    ("/api/admin/bookings/{id}/reassign", "put"),
    ("/api/admin/bookings/{id}/cancel", "put"),
    ("/api/admin/service-requests", "get"),
}


def test_schema_lists_every_marketplace_operation(client, db):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    operations = {(path, method) for path, item in schema["paths"].items() for method in item}
    assert EXPECTED <= operations
    create = schema["components"]["schemas"]["ServiceRequestCreateRequest"]
    # location may be left out: the request's recipient's address is used (still required
    # when the recipient has none, which only the server knows).
    assert set(create["required"]) == {"title", "description", "categoryId", "preferredDate"}
    assert "recipientId" in create["properties"]


def test_docs_page_is_served(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
