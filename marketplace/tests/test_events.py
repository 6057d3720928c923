"""Domain events: every event is heard, every handler is listed in marketplace/subscribers.py, and
each subscription runs when it says (inside the publisher's transaction, or after its commit)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django.db import transaction

from core import events
from marketplace import subscribers

APPS = ["accounts", "circles", "providers", "requests_app", "bookings", "payments", "messaging", "notifications"]


def _event_types() -> set[type]:
    return {
        obj
        for _, obj in inspect.getmembers(events, inspect.isclass)
        if issubclass(obj, events.DomainEvent) and obj is not events.DomainEvent
    }


def _app_handlers() -> set:
    """Every function of the apps' own modules (tests aside) that takes one domain event, named
    on_<something>: the handlers, whether or not anyone listed them."""
    found = set()
    names = {t.__name__ for t in _event_types()}
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".tests" in info.name or ".migrations" in info.name or info.name.endswith(".tests"):
                continue
            module = importlib.import_module(info.name)
            for name, fn in inspect.getmembers(module, inspect.isfunction):
                if fn.__module__ != module.__name__:
                    continue
                hints = {str(p.annotation).split(".")[-1] for p in inspect.signature(fn).parameters.values()}
                if name.startswith("on_") or hints & names:
                    found.add(fn)
    return found


def test_every_event_has_a_subscriber_in_the_registry():
    unheard = {t.__name__ for t in _event_types()} - {
        t.__name__ for t, handlers in subscribers.REGISTRY.items() if handlers
    }
    assert unheard == set(), f"events nobody subscribes to in marketplace/subscribers.py: {sorted(unheard)}"
    # and the registry is what publish() uses
    for event_type, handlers in subscribers.REGISTRY.items():
        assert [(s.handler, s.when) for s in events.SUBSCRIPTIONS[event_type]] == handlers


def test_every_handler_is_listed_in_the_registry():
    listed = {handler for handlers in subscribers.REGISTRY.values() for handler, _ in handlers}
    unlisted = {f"{fn.__module__}.{fn.__name__}" for fn in _app_handlers() - listed}
    assert unlisted == set(), f"handlers missing from marketplace/subscribers.py: {sorted(unlisted)}"


def test_the_check_sees_an_unlisted_handler(monkeypatch):
    """The scan above is not vacuous: a new on_... function of an app is found."""
    from payments import refunds

    def on_something_new(event: events.RefundRequested) -> None: ...

    on_something_new.__module__ = refunds.__name__
    monkeypatch.setattr(refunds, "on_something_new", on_something_new, raising=False)
    assert on_something_new in _app_handlers()


@pytest.mark.django_db(transaction=True)
def test_on_commit_subscribers_run_after_the_commit_and_never_on_rollback(monkeypatch):
    heard: list[tuple[str, bool]] = []

    def hear(kind):
        return lambda event: heard.append((kind, transaction.get_connection().in_atomic_block))

    monkeypatch.setitem(
        events.SUBSCRIPTIONS,
        events.CircleInvitationSent,
        [
            events.Subscription(handler=hear("now"), when=events.When.IN_TRANSACTION),
            events.Subscription(handler=hear("after"), when=events.When.ON_COMMIT),
        ],
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        events.publish(events.CircleInvitationSent(invitation_id=1))
        raise RuntimeError("rolled back")
    assert heard == [("now", True)]
    heard.clear()
    with transaction.atomic():
        events.publish(events.CircleInvitationSent(invitation_id=2))
        assert heard == [("now", True)]
    assert heard == [("now", True), ("after", False)]
