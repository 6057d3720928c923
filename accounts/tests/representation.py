"""Test support: the hot read serializers' fast `to_representation` against DRF's generic one.

The fast ones build their dict straight from the instance (issue 8, load benchmark). Inside
`generic_representation()` every such override is switched off, so the same serializer, view or
API call answers through DRF's per-field machinery; `assert_same_output` compares both, as Python
values and as the JSON bytes the API sends.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

FAST_MODULES = [
    "accounts.api.serializers",
    "providers.api.serializers",
    "bookings.api.serializers",
    "requests_app.api.serializers",
    "messaging.api.serializers",
]


def fast_serializer_classes() -> list[type[serializers.BaseSerializer]]:
    """Every serializer in FAST_MODULES that defines its own to_representation."""
    found = []
    for name in FAST_MODULES:
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, serializers.BaseSerializer)
                and obj.__module__ == name
                and "to_representation" in vars(obj)
            ):
                found.append(obj)
    return found


@contextmanager
def generic_representation() -> Iterator[None]:
    """Within: every fast serializer answers through DRF's generic Serializer.to_representation."""
    with ExitStack() as stack:
        for cls in fast_serializer_classes():
            base = (
                serializers.ModelSerializer if issubclass(cls, serializers.ModelSerializer) else serializers.Serializer
            )
            stack.enter_context(mock.patch.object(cls, "to_representation", base.to_representation))
        yield


def to_json(value: Any) -> bytes:
    return JSONRenderer().render(value)


def assert_same_output(produce: Callable[[], Any]) -> Any:
    """produce() with the fast serializers == produce() with the generic ones (values and JSON)."""
    fast = produce()
    with generic_representation():
        generic = produce()
    assert fast == generic
    assert to_json(fast) == to_json(generic)
    return fast


def assert_same_response(client, url: str) -> Any:
    """GET url answers the same status, body bytes and total count either way; returns the JSON."""

    def get():
        response = client.get(url)
        return response.status_code, response.content, response.headers.get("X-Total-Count")

    fast = get()
    with generic_representation():
        generic = get()
    assert fast[0] == 200, fast
    assert fast == generic
    return json.loads(fast[1])
