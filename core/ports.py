"""Ports: a read a lower app needs from a table an app above it owns, answered without an import.

The app graph is one-way (pyproject's import-linter layers): providers and requests_app sit below
bookings and never import it. A few of their reads still need the bookings table (is this helper
already booked at that time? which booking does this request show? does this helper still hold
the address?). Reading it through the reverse relations bookings declares (Provider.bookings,
ServiceRequest.bookings) would hide that dependency from import-linter, so instead:

  - the lower app declares the question as a Port, in its own `ports.py`, saying what the answer
    means (providers/ports.py, requests_app/ports.py);
  - the app that owns the table writes the answer in its selectors (bookings.selectors);
  - ONE module, marketplace/ports.py (site glue, loaded by marketplace.apps next to the event
    subscribers), plugs each answer into its port. "Who answers this?" is read there.

Asking a port nobody plugged raises. marketplace/tests/test_ports.py fails when a port has no
answer, and when a lower app reads a higher app's table through a reverse relation again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec, TypeVar

from django.core.exceptions import ImproperlyConfigured

P = ParamSpec("P")
R = TypeVar("R")

# Every port declared, in the order the apps declared them (marketplace/ports.py plugs each).
PORTS: list[Port] = []


class Port(Generic[P, R]):
    """A question a lower app asks; calling the port asks the answer plugged into it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.answer: Callable[P, R] | None = None
        PORTS.append(self)

    def plug(self, answer: Callable[P, R]) -> None:
        self.answer = answer

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.answer is None:
            raise ImproperlyConfigured(f"Nothing answers the port {self.name}: is it plugged in marketplace/ports.py?")
        return self.answer(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Port {self.name}>"
