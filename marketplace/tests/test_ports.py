"""Ports (core.ports): every question a lower app asks of a table above it has one answer, listed
in marketplace/ports.py; and no lower app reads a higher app's table through a reverse relation,
which import-linter cannot see."""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from core.ports import PORTS, Port
from marketplace import ports as wiring

# The layers of pyproject's import-linter contract, lowest first (siblings share a layer).
LAYERS = [
    {"core"},
    {"accounts"},
    {"circles"},
    {"providers"},
    {"vetting"},
    {"requests_app"},
    {"bookings"},
    {"payments", "messaging"},
    {"notifications"},
    {"adminpanel"},
    {"marketplace"},
]


def _layer(app_label: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if app_label in layer), None)


def _declared_ports() -> list[Port]:
    for layer in LAYERS:
        for app in layer:
            if (pathlib.Path(settings.BASE_DIR) / app / "ports.py").exists():
                importlib.import_module(f"{app}.ports")
    return list(PORTS)


def test_every_port_is_answered_in_the_one_list():
    declared = _declared_ports()
    assert declared, "no port found: the scan is broken"
    unlisted = {port.name for port in declared} - {port.name for port in wiring.ANSWERS}
    assert unlisted == set(), f"ports with no answer in marketplace/ports.py: {sorted(unlisted)}"
    for port, answer in wiring.ANSWERS.items():
        assert port.answer is answer, f"{port.name} is not plugged (marketplace.apps runs ports.plug())"


def test_each_answer_is_a_selector_of_an_app_above_the_one_asking():
    for port, answer in wiring.ANSWERS.items():
        asking = port.name.split(".")[0]
        # app.selectors, or a module of the package app.selectors (bookings.selectors.ports)
        answering, module = answer.__module__.split(".")[0], answer.__module__.split(".")[1]
        assert module == "selectors", f"{port.name} is answered by {answer.__module__}, not a selectors module"
        assert _layer(answering) > _layer(asking), f"{port.name}: {answering} is not above {asking}"


def test_a_port_nobody_answers_says_so():
    port = Port("tests.unplugged")
    PORTS.remove(port)
    with pytest.raises(ImproperlyConfigured, match="tests.unplugged"):
        port()


# ---------------------------------------------------------------- reverse relations


def _upward_relations() -> dict[str, set[str]]:
    """For each app, the names by which its models reach a higher app's table through a reverse
    relation (Provider.bookings, ServiceRequest.bookings, User.client_bookings, ...)."""
    names: dict[str, set[str]] = {}
    for model in apps.get_models():
        low = _layer(model._meta.app_label)
        if low is None:
            continue
        for rel in model._meta.related_objects:
            high = _layer(rel.related_model._meta.app_label)
            if high is not None and high > low:
                found = {rel.get_accessor_name(), rel.field.related_query_name()}
                names.setdefault(model._meta.app_label, set()).update(n for n in found if not n.endswith("+"))
    return names


def _reads(text: str, name: str) -> list[str]:
    """Lines that read through the relation `name`: its manager (.name.filter), a lookup
    (name__status) or a relation named in a query (Prefetch("name"), get_field("name"), ...)."""
    patterns = [
        rf"\.{name}\.",
        rf"\b{name}__\w",
        rf"\b(Prefetch|prefetch_related|get_field|Count|Exists|Sum|Max|Min)\(\s*[\"']{name}[\"']",
    ]
    return [line.strip() for line in text.splitlines() if any(re.search(p, line) for p in patterns)]


def _app_sources(app: str):
    for path in sorted((pathlib.Path(settings.BASE_DIR) / app).rglob("*.py")):
        if "tests" in path.parts or "migrations" in path.parts:
            continue
        yield path


def test_no_app_reads_a_higher_apps_table_through_a_reverse_relation():
    relations = _upward_relations()
    assert "bookings" in relations["providers"], "the scan no longer sees Provider.bookings"
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {line}"
        for app, names in relations.items()
        for path in _app_sources(app)
        for name in names
        for line in _reads(path.read_text(), name)
    ]
    assert found == [], "reads of a higher app's table (ask a port, core.ports):\n" + "\n".join(found)


def test_the_scan_sees_each_way_of_reading_a_relation():
    for line in (
        "provider.bookings.filter(status='confirmed')",
        "ServiceRequest.objects.filter(bookings__provider__user=user)",
        'Prefetch("bookings", queryset=qs)',
        'Provider._meta.get_field("bookings").related_model',
    ):
        assert _reads(line, "bookings"), line
    assert not _reads('raise InvalidInput(exc.messages[0], errors={"messages": []})', "messages")
