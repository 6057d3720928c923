"""core.geo: great-circle distances, the boxes that pick candidates (the date line, the poles),
and the rounding people see."""

from __future__ import annotations

import math
import random

import pytest

from core.geo import EARTH_RADIUS_MILES, Point, box_around, miles_between, shown_miles

SPRINGFIELD = Point(39.7817, -89.6501)
CHICAGO = Point(41.8781, -87.6298)


def test_springfield_to_chicago_is_about_180_miles():
    assert miles_between(SPRINGFIELD, CHICAGO) == pytest.approx(179.6, abs=0.5)
    assert miles_between(CHICAGO, SPRINGFIELD) == miles_between(SPRINGFIELD, CHICAGO)
    assert miles_between(SPRINGFIELD, SPRINGFIELD) == 0


def test_a_degree_of_latitude_is_about_69_miles():
    assert miles_between(Point(40, -89), Point(41, -89)) == pytest.approx(69.09, abs=0.01)


def test_distance_across_the_date_line_is_the_short_way_round():
    east, west = Point(51.9, 179.95), Point(51.9, -179.95)
    assert miles_between(east, west) == pytest.approx(0.1 * 69.09 * math.cos(math.radians(51.9)), rel=1e-3)


def test_antipodes_are_half_way_round():
    assert miles_between(Point(0, 0), Point(0, 180)) == pytest.approx(math.pi * EARTH_RADIUS_MILES)


def test_a_point_off_the_earth_is_refused():
    with pytest.raises(ValueError):
        Point(91, 0)
    with pytest.raises(ValueError):
        Point(0, 180.5)


@pytest.mark.parametrize("center", [SPRINGFIELD, Point(64.8, -147.7), Point(-33.9, 151.2), Point(51.9, 179.9)])
@pytest.mark.parametrize("miles", [1, 10, 100])
def test_every_place_within_the_distance_is_inside_the_box(center, miles):
    box = box_around(center, miles)
    rng = random.Random(f"{center}{miles}")
    for _ in range(2000):
        # A place at a random bearing, at a random distance up to `miles` (and right on it).
        bearing = rng.uniform(0, 2 * math.pi)
        distance = miles if rng.random() < 0.3 else rng.uniform(0, miles)
        angle = distance / EARTH_RADIUS_MILES
        lat1, lng1 = math.radians(center.latitude), math.radians(center.longitude)
        lat2 = math.asin(math.sin(lat1) * math.cos(angle) + math.cos(lat1) * math.sin(angle) * math.cos(bearing))
        lng2 = lng1 + math.atan2(
            math.sin(bearing) * math.sin(angle) * math.cos(lat1), math.cos(angle) - math.sin(lat1) * math.sin(lat2)
        )
        lng = (math.degrees(lng2) + 540) % 360 - 180
        place = Point(math.degrees(lat2), lng)
        assert miles_between(center, place) == pytest.approx(distance, abs=1e-6)
        assert box.contains(place), (center, miles, place)


def test_the_box_is_split_at_the_date_line():
    box = box_around(Point(51.9, 179.9), 20)
    assert box.longitudes is not None and len(box.longitudes) == 2
    (west, east_edge), (west_edge, east) = box.longitudes
    assert east_edge == 180.0 and west_edge == -180.0
    assert west == pytest.approx(179.431, abs=1e-3) and east == pytest.approx(-179.631, abs=1e-3)
    assert box.contains(Point(51.9, -179.8)) and not box.contains(Point(51.9, 0))


def test_a_box_that_reaches_a_pole_spans_every_longitude():
    box = box_around(Point(89.9, 10), 50)
    assert box.longitudes is None and box.north == 90


def test_the_box_is_tight_in_latitude():
    box = box_around(SPRINGFIELD, 69.09)
    assert box.north - SPRINGFIELD.latitude == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize(
    ("miles", "shown"),
    [(0.04, 0.0), (3.249, 3.2), (3.25, 3.2), (9.94, 9.9), (9.96, 10.0), (10.4, 10.0), (10.6, 11.0), (87.5, 88.0)],
)
def test_people_see_tenths_under_ten_miles_and_whole_miles_beyond(miles, shown):
    assert shown_miles(miles) == shown
