"""Where an address is: the Geocoder interface and its two implementations, and the US ZIP rule.

- `ZipGeocoder` (offline; make run and the tests): the centre of the address's US ZIP code, from
  the `zipcodes` package, which ships its own data (no network, no key).
- `GeopyGeocoder` (production): any geocoding service geopy speaks (Nominatim, Google, Bing,
  ...), chosen by settings (GEOCODER, GEOCODER_OPTIONS, GEOCODER_QUERY_OPTIONS); a street that the
  service cannot place falls back to its ZIP's centre.

A geocoder is an outside service: it is called from Celery (circles.tasks, providers.tasks),
never inside a database transaction (`place_record` checks it). A record is saved first with its
place "pending"; the task fills the coordinates after, and an address nobody can place is saved
anyway, "not found", which staff see flagged in the Django admin.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import zipcodes
from django.conf import settings
from django.db import models, transaction
from django.utils.translation import gettext_lazy

from core.addresses import Address
from core.geo import Point


class PlaceStatus(models.TextChoices):
    """Where a record's coordinates stand. NOT_FOUND is the flag staff look for."""

    NO_ADDRESS = "", "No address"
    PENDING = "pending", "Being placed"
    LOCATED = "located", "Placed"
    NOT_FOUND = "not_found", "Could not be placed"


# ---------------------------------------------------------------- the US ZIP rule

ZIP_REQUIRED = gettext_lazy("Please enter your ZIP code.")
ZIP_NOT_US = gettext_lazy(
    "Kindly works in the United States only for now. Please enter a 5-digit US ZIP code, like 62701."
)
ZIP_UNKNOWN = gettext_lazy("We could not find the ZIP code {zip}. Please check it.")
# A ZIP code or ZIP+4 (the form checks this shape; only the server knows which codes exist).
ZIP_PATTERN = r"(\d{5})(?:-\d{4})?"
_ZIP = re.compile(f"^{ZIP_PATTERN}$")
_OVERSEAS_STATES = {"AA", "AE", "AP"}


@cache
def _zip_entry(zip5: str) -> dict | None:
    found = zipcodes.matching(zip5)
    return found[0] if found else None


def _overseas(entry: dict) -> bool:
    """Military and diplomatic mail (APO, FPO, DPO) goes abroad: "states" AA, AE and AP, filed
    under the country it reaches."""
    return entry.get("country") != "US" or entry["state"] in _OVERSEAS_STATES


def zip_problem(text: str, *, required: bool = True) -> str:
    """What is wrong with a ZIP code as typed ("" when it is a US ZIP code with a place): not a
    5-digit (or ZIP+4) code, an overseas military one, or one the ZIP list does not know."""
    text = (text or "").strip()
    if not text:
        return ZIP_REQUIRED if required else ""
    match = _ZIP.match(text)
    if not match:
        return ZIP_NOT_US
    entry = _zip_entry(match[1])
    if entry is None:
        return ZIP_UNKNOWN.format(zip=match[1])
    if _overseas(entry):
        return ZIP_NOT_US
    return ""


def zip_point(text: str) -> Point | None:
    """The centre of a US ZIP code (offline), or None when it has none."""
    match = _ZIP.match((text or "").strip())
    entry = _zip_entry(match[1]) if match else None
    if entry is None or _overseas(entry):
        return None
    latitude, longitude = float(entry["lat"]), float(entry["long"])
    if latitude == 0 and longitude == 0:
        return None
    return Point(latitude, longitude)


def zip_time_zone(text: str) -> str:
    """The time zone a US ZIP code lies in ("America/Chicago"), "" when unknown: the clock of a
    person cared for who lives there."""
    match = _ZIP.match((text or "").strip())
    entry = _zip_entry(match[1]) if match else None
    if entry is None or _overseas(entry):
        return ""
    return entry.get("timezone") or ""


def zip_town(text: str) -> tuple[str, str]:
    """(town, state) of a US ZIP code, ("", "") when unknown: how a helper's home is told."""
    match = _ZIP.match((text or "").strip())
    entry = _zip_entry(match[1]) if match else None
    return (entry["city"], entry["state"]) if entry else ("", "")


# ---------------------------------------------------------------- geocoders


class GeocoderUnavailable(Exception):
    """The service did not answer (down, timed out, over its rate): try again later."""


class Geocoder(Protocol):
    def locate(self, address: Address) -> Point | None:
        """The address's place, or None when it cannot be placed. Raises GeocoderUnavailable."""


class ZipGeocoder:
    """The centre of the address's ZIP code, offline."""

    def locate(self, address: Address) -> Point | None:
        return zip_point(address.zip_code)


# make run's demo homes, placed to the street (GEOCODER=demo, scripts/run.sh): a helper who checks in
# there, with Chromium's position set to the point, is "verified" (bookings.services.visit_record).
# Every other address gets its ZIP code's centre, and is never compared with a check-in.
DEMO_STREETS: dict[tuple[str, str], Point] = {
    ("12 elm street", "62704"): Point(39.78012, -89.67315),  # Clara, the demo's care recipient
}


def _street_key(street: str, zip_code: str) -> tuple[str, str]:
    return (" ".join(street.lower().split()), zip_code.strip()[:5])


class DemoGeocoder(ZipGeocoder):
    """Offline, for make run: the demo's homes to the street (DEMO_STREETS), others by ZIP code."""

    def locate(self, address: Address) -> Point | None:
        return DEMO_STREETS.get(_street_key(address.street, address.zip_code)) or super().locate(address)


def placed_to_the_street(*, street: str, zip_code: str) -> bool:
    """Whether a home's coordinates are the home itself (a geocoding service, or a demo home under
    GEOCODER=demo), not a ZIP code's centre miles from most of its homes."""
    name = getattr(settings, "GEOCODER", "zip") or "zip"
    if name == "zip":
        return False
    if name == "demo":
        return _street_key(street, zip_code) in DEMO_STREETS
    return True


def _one_line(address: Address) -> str:
    town_line = " ".join(p for p in (address.state, address.zip_code) if p)
    parts = [address.street, address.town, town_line, "USA"]
    return ", ".join(p.strip() for p in parts if p and p.strip())


class GeopyGeocoder:
    """A geocoding service through geopy. `service` is geopy's name for it ("nominatim",
    "googlev3", "bing", ...); `options` go to its constructor (user_agent, api_key, domain,
    scheme, ...), `query_options` to each geocode() call (for Nominatim {"country_codes": "us"})."""

    def __init__(self, service: str, *, options: dict | None = None, query_options: dict | None = None):
        from geopy.geocoders import get_geocoder_for_service

        self.query_options = dict(query_options or {})
        self.service = get_geocoder_for_service(service)(**(options or {}))

    def _ask(self, query: str) -> Point | None:
        from geopy.exc import GeocoderQueryError, GeocoderServiceError

        if transaction.get_connection().in_atomic_block:
            # It would hold the transaction's row locks while the service answers.
            raise RuntimeError("A geocoding service is never called inside a database transaction.")
        try:
            found = self.service.geocode(query, exactly_one=True, **self.query_options)
        except GeocoderQueryError:
            return None  # the service says the query itself is bad: nothing to find
        except GeocoderServiceError as error:  # timeouts, outages, rate limits, refused keys
            raise GeocoderUnavailable(str(error)) from error
        if found is None:
            return None
        return Point(float(found.latitude), float(found.longitude))

    def locate(self, address: Address) -> Point | None:
        if address.street.strip():
            point = self._ask(_one_line(address))
            if point is not None:
                return point
        if address.zip_code.strip():
            return self._ask(_one_line(Address(zip_code=address.zip_code, state=address.state)))
        if address.town.strip():
            return self._ask(_one_line(Address(town=address.town, state=address.state)))
        return None


def geocoder() -> Geocoder:
    """The configured geocoder: settings.GEOCODER is "zip" (offline), "demo" (offline, make run) or
    a geopy service name."""
    name = getattr(settings, "GEOCODER", "zip") or "zip"
    if name == "zip":
        return ZipGeocoder()
    if name == "demo":
        return DemoGeocoder()
    return GeopyGeocoder(
        name,
        options={"timeout": settings.GEOCODER_TIMEOUT, **settings.GEOCODER_OPTIONS},
        query_options=settings.GEOCODER_QUERY_OPTIONS,
    )


# ---------------------------------------------------------------- filling a record's place


@dataclass(frozen=True)
class Placed:
    """What place_record did: "located", "not_found", "no_address", "changed" (the address changed
    while the service was asked: the newer address's own task places it) or "gone"."""

    outcome: str
    point: Point | None = None


def place_record(
    model: type[models.Model],
    pk: int,
    *,
    address_of: Callable[[models.Model], Address],
    locate: Callable[[Address], Point | None] | None = None,
) -> Placed:
    """Ask the geocoder where the record's address is, then save its coordinates and status.

    Runs outside any transaction (a Celery task): the outside call holds no row lock. The row is
    then re-read under lock and written only if its address is still the one that was placed, with
    save(update_fields=...) so the list caches see the change."""
    record = model._default_manager.filter(pk=pk).first()
    if record is None:
        return Placed("gone")
    address = address_of(record)
    if not any(address.as_dict().values()):
        point, status = None, PlaceStatus.NO_ADDRESS
    else:
        point = (locate or geocoder().locate)(address)
        status = PlaceStatus.LOCATED if point else PlaceStatus.NOT_FOUND
    with transaction.atomic():
        record = model._default_manager.select_for_update().filter(pk=pk).first()
        if record is None:
            return Placed("gone")
        if address_of(record) != address:
            return Placed("changed")
        record.latitude = point.latitude if point else None
        record.longitude = point.longitude if point else None
        record.place_status = status
        record.save(update_fields=["latitude", "longitude", "place_status", "updated_at"])
    return Placed(status.value if status != PlaceStatus.NO_ADDRESS else "no_address", point)


def place_on_commit(task, pk: int) -> None:
    """Enqueue a place task for this record once the caller's transaction commits (a broker that
    is down loses nothing: the record stays "pending" and beat's sweep asks again)."""
    transaction.on_commit(lambda: task.delay(pk), robust=True)
