"""Distances on the Earth's surface, in Python and as database expressions.

Places are stored as latitude and longitude (degrees, two indexed float columns), so the same
query runs on SQLite (make run) and PostgreSQL: a bounding box on the indexed columns picks the
candidates, then the exact great-circle distance decides. The box is exact for a
sphere (its longitude span is the circle's tangent meridians, not a flat-map guess), is split in
two where it crosses the date line (180 degrees east = 180 degrees west), and spans every
longitude where it reaches a pole.

In the database the exact test is a dot product: each row keeps its place as a point on the unit
sphere (x, y, z: unit_vector, stored by the database itself, unit_vector_columns), so "within this
many miles" compares the dot product with the place's (closeness) to one cosine (cos_of_miles): a
few multiplications a row instead of a chain of trigonometry, and the distance itself (arc_miles)
is worked out only for the rows read out. In Python: miles_between (haversine).

What people see is a rounded distance (shown_miles): a helper's home is placed by her ZIP code
only, and no distance on a page says more than a tenth of a mile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import F, FloatField, Q, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import ACos, Cos, Least, Radians, Sin

# The mean radius of the Earth (IUGG), in statute miles.
EARTH_RADIUS_MILES = 3958.7613
# A box is widened by this much (degrees, about a centimetre) so a place right on its edge is not
# lost to the rounding of floats; the exact distance decides afterwards.
_EDGE = 1e-7


@dataclass(frozen=True)
class Point:
    latitude: float
    longitude: float

    def __post_init__(self) -> None:
        if not (-90 <= self.latitude <= 90 and -180 <= self.longitude <= 180):
            raise ValueError(f"not a place on Earth: {self.latitude}, {self.longitude}")


@dataclass(frozen=True)
class Box:
    """Latitudes south..north, and one or two longitude ranges (two across the date line; None:
    every longitude, when the box reaches a pole)."""

    south: float
    north: float
    longitudes: tuple[tuple[float, float], ...] | None

    def contains(self, point: Point) -> bool:
        if not self.south <= point.latitude <= self.north:
            return False
        return self.longitudes is None or any(w <= point.longitude <= e for w, e in self.longitudes)


def miles_between(a: Point, b: Point) -> float:
    """The great-circle distance (haversine formula), in miles."""
    phi1, phi2 = math.radians(a.latitude), math.radians(b.latitude)
    half_dphi = (phi2 - phi1) / 2
    half_dlambda = math.radians(b.longitude - a.longitude) / 2
    h = math.sin(half_dphi) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(half_dlambda) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(math.sqrt(min(1.0, h)))


def box_around(center: Point, miles: float) -> Box:
    """The smallest latitude/longitude box holding every place within `miles` of `center`."""
    angle = miles / EARTH_RADIUS_MILES  # radians of arc
    south = center.latitude - math.degrees(angle) - _EDGE
    north = center.latitude + math.degrees(angle) + _EDGE
    if south <= -90 or north >= 90 or angle >= math.pi / 2:
        return Box(max(south, -90.0), min(north, 90.0), None)
    # The meridians tangent to the circle: sin(dlng) = sin(angle) / cos(latitude).
    reach = math.sin(angle) / math.cos(math.radians(center.latitude))
    if reach >= 1:
        return Box(south, north, None)
    half = math.degrees(math.asin(reach)) + _EDGE
    west, east = center.longitude - half, center.longitude + half
    if west < -180:
        return Box(south, north, ((west + 360, 180.0), (-180.0, east)))
    if east > 180:
        return Box(south, north, ((west, 180.0), (-180.0, east - 360)))
    return Box(south, north, ((west, east),))


def in_box(box: Box, *, latitude: str = "latitude", longitude: str = "longitude") -> Q:
    """The box as a filter on two indexed columns (a range each: an index scan on both databases)."""
    where = Q(**{f"{latitude}__range": (box.south, box.north)})
    if box.longitudes is None:
        return where
    spans = Q()
    for west, east in box.longitudes:
        spans |= Q(**{f"{longitude}__range": (west, east)})
    return where & spans


def unit_vector(point: Point) -> tuple[float, float, float]:
    """The place as a point on the unit sphere (x towards 0 N 0 E, z towards the North Pole)."""
    phi, lam = math.radians(point.latitude), math.radians(point.longitude)
    return (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))


def unit_vector_columns(*, latitude: str = "latitude", longitude: str = "longitude") -> dict[str, Combinable]:
    """unit_vector as database expressions of a row's own latitude and longitude, for the model's
    generated columns (models.GeneratedField: the database keeps them, whatever writes the place)."""
    phi, lam = Radians(F(latitude)), Radians(F(longitude))
    return {"x": Cos(phi) * Cos(lam), "y": Cos(phi) * Sin(lam), "z": Sin(phi)}


def cos_of_miles(miles: float) -> float:
    """The closeness (the cosine of the angle at the Earth's centre) of two places `miles` apart."""
    return math.cos(min(miles / EARTH_RADIUS_MILES, math.pi))


def closeness(center: Point, *, x: str = "x", y: str = "y", z: str = "z") -> Combinable:
    """The cosine of the angle at the Earth's centre between `center` and each row's place (the dot
    product of their unit vectors, from the row's stored x, y, z): 1 at the same place, falling with
    the distance, so `closeness >= cos_of_miles(d)` is "within d miles" and sorting by it
    descending is nearest first. Exact, not a flat-map guess; no trigonometry per row."""
    cx, cy, cz = unit_vector(center)
    return (
        F(x) * Value(cx, output_field=FloatField())
        + F(y) * Value(cy, output_field=FloatField())
        + F(z) * Value(cz, output_field=FloatField())
    )


def arc_miles(nearness: Combinable) -> Combinable:
    """The distance in miles of a closeness (the great-circle arc). Least(1, ...): rounding may take
    the dot product of one place with itself a hair over 1, where ACOS would fail."""
    return Value(EARTH_RADIUS_MILES, output_field=FloatField()) * ACos(
        Least(Value(1.0, output_field=FloatField()), nearness)
    )


def shown_miles(miles: float) -> float:
    """A distance as people see it: tenths of a mile under 10 miles ("3.2 miles away"), whole
    miles beyond. Nothing finer ever leaves the server."""
    return round(miles, 1) if miles < 10 else float(round(miles))
