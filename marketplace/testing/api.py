"""Helpers for API tests shared by every app: JSON calls as the pages make them, valid bodies."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.apps import apps
from django.test import Client
from django.utils import timezone


def call(client: Client, method: str, url: str, body: Any = None):
    """Send a JSON request (like the pages do) and return the response."""
    kwargs: dict[str, Any] = {}
    if body is not None:
        kwargs = {"data": json.dumps(body), "content_type": "application/json"}
    return getattr(client, method.lower())(url, **kwargs)


def category_id(slug: str = "tech-support") -> int:
    # By the app registry: marketplace (the core every app builds on) imports no domain app.
    return apps.get_model("requests_app", "ServiceCategory").objects.get(slug=slug).pk


def valid_request_body(**overrides: Any) -> dict[str, Any]:
    body = {
        "title": "Help with my new tablet",
        "description": "Please show me how to make video calls to my grandchildren.",
        "categoryId": category_id(),
        "preferredDate": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
        "preferredTime": "morning",
        "urgency": "normal",
        "location": "12 Elm Street, Springfield",
        "specialRequirements": "",
        "estimatedDuration": 60,
        "maxBudget": 40,
    }
    body.update(overrides)
    return body


def valid_application_body(**overrides: Any) -> dict[str, Any]:
    body = {
        "phone": "555-123-4567",
        "specialties": ["tech-support", "wellness-checks"],
        "hourlyRate": 35,
        "serviceArea": "Springfield and Shelbyville",
        "homeZip": "62704",
        "travelMiles": 15,
        "bio": "Retired teacher who loves helping neighbours with phones, tablets and email, patiently.",
        "experience": "Five years volunteering at the library's tech help desk.",
    }
    body.update(overrides)
    return body
