"""Reading the map view from its pixels: walkability agrees with the city's own raster, closures read as
blocked, names are found at their icon, category icons are found by colour."""

from __future__ import annotations

import numpy as np
import pytest

from tango.urban.agents.mapreader import BLOCKED, FREE, MapReading, find_icons, find_label, read_walkability
from tango.urban.city.layout import generate_district
from tango.urban.city.mapview import MapCamera, render_map
from tango.urban.city.raster import rasterize


@pytest.fixture(scope="module")
def city():  # type: ignore[no-untyped-def]
    district = generate_district(0)
    return district, rasterize(district)


def _reading(city, camera: MapCamera, **overlays) -> MapReading:  # type: ignore[no-untyped-def]
    rgb = render_map(city[1], city[0], camera, **overlays)
    return MapReading(camera, rgb, read_walkability(rgb))


def test_walkability_read_from_the_map_matches_the_raster_under_labels_and_the_avatar(city) -> None:
    district, raster = city
    bridge = district.footbridges[0]
    camera = MapCamera(*bridge.deck.center, span_m=160.0, width=640, height=480)
    reading = _reading(city, camera, agent=(bridge.deck.center[0], bridge.deck.center[1] - 10, 0.0))
    agree = total = 0
    for py in range(0, 440, 7):
        for px in range(0, 640, 7):
            truth = raster.is_walkable(*camera.to_local(px + 0.5, py + 0.5))
            agree += (reading.cells[py, px] == FREE) == truth
            total += 1
    assert agree / total > 0.98


def test_a_closure_line_on_the_map_is_read_as_blocked(city) -> None:
    district, _ = city
    shop = district.shops[0]
    line = [(shop.entrance[0] - 6, shop.entrance[1]), (shop.entrance[0] + 6, shop.entrance[1])]
    camera = MapCamera(*shop.entrance)
    px, py = (int(v) for v in camera.to_pixel(*shop.entrance))
    assert _reading(city, camera).cells[py, px] == FREE
    assert _reading(city, camera, closures=[line]).cells[py, px] == BLOCKED


def test_a_name_is_found_at_its_icon_and_icons_by_category(city) -> None:
    district, _ = city
    found = 0
    for shop in district.shops[::5]:
        camera = MapCamera(shop.label_anchor[0] + 25, shop.label_anchor[1] - 15)
        reading = _reading(city, camera)
        point = find_label(reading, shop.name)
        found += (
            point is not None
            and np.hypot(point[0] - shop.label_anchor[0], point[1] - shop.label_anchor[1]) < 1.5
        )
        icons = find_icons(reading, shop.category)
        assert any(np.hypot(x - shop.label_anchor[0], y - shop.label_anchor[1]) < 1.5 for x, y in icons)
    assert found >= 0.9 * len(district.shops[::5])
    camera = MapCamera(*district.shops[0].label_anchor)
    assert find_label(_reading(city, camera), "Nowhere Emporium") is None
