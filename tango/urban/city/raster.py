"""The district as a 0.5 m raster: one surface class, height and surface name per cell (row 0 is north).

Movement, the map view and the reference routes all read this one raster. Level changes happen only along
stairs; railings and planters separate a flight from the walkway beside it, so a 2D walkable mask is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.sim.navgrid import NavGrid
from tango.urban.city.layout import District, Rect

RESOLUTION = 0.5
MARGIN = 10.0

VOID, ROAD, SIDEWALK, CROSSING, BUILDING, PARK, PLAZA, STAIRS, DECK, RAILING, PLANTER, LANDMARK, TREE = range(
    13
)
CLASS_NAMES = (
    "void",
    "road",
    "sidewalk",
    "crossing",
    "building",
    "park",
    "plaza",
    "stairs",
    "deck",
    "railing",
    "planter",
    "landmark",
    "tree",
)
WALKABLE_CLASSES = (SIDEWALK, CROSSING, PARK, PLAZA, STAIRS, DECK)
PAVEMENT_CLASSES = (SIDEWALK, CROSSING, PLAZA, STAIRS, DECK)


@dataclass
class CityRaster:
    """Per-cell class (uint8), height (float32 metres) and surface index into `surfaces`."""

    classes: np.ndarray
    heights: np.ndarray
    surface_ids: np.ndarray
    surfaces: list[str]
    origin_x: float
    top_y: float
    resolution: float = RESOLUTION

    @property
    def walkable(self) -> np.ndarray:
        return np.isin(self.classes, WALKABLE_CLASSES)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return int(np.floor((self.top_y - y) / self.resolution)), int(
            np.floor((x - self.origin_x) / self.resolution)
        )

    def center(self, row: int, col: int) -> tuple[float, float]:
        return (self.origin_x + (col + 0.5) * self.resolution, self.top_y - (row + 0.5) * self.resolution)

    def inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.classes.shape[0] and 0 <= col < self.classes.shape[1]

    def class_at(self, x: float, y: float) -> int:
        row, col = self.cell(x, y)
        return int(self.classes[row, col]) if self.inside(row, col) else VOID

    def is_walkable(self, x: float, y: float) -> bool:
        return self.class_at(x, y) in WALKABLE_CLASSES

    def height_at(self, x: float, y: float) -> float:
        row, col = self.cell(x, y)
        return float(self.heights[row, col]) if self.inside(row, col) else 0.0

    def surface_at(self, x: float, y: float) -> str:
        row, col = self.cell(x, y)
        return self.surfaces[int(self.surface_ids[row, col])] if self.inside(row, col) else ""

    def navgrid(self, walkable: np.ndarray | None = None) -> NavGrid:
        """A NavGrid over this raster (x east, z = -north), for geodesics and shortest paths."""
        mask = self.walkable if walkable is None else walkable
        return NavGrid(mask, (self.origin_x, -self.top_y), self.resolution, 0.0)


class _Painter:
    def __init__(self, district: District) -> None:
        bounds = district.bounds
        self.origin_x = bounds.x0 - MARGIN
        self.top_y = bounds.y1 + MARGIN
        cols = round((bounds.x1 + MARGIN - self.origin_x) / RESOLUTION)
        rows = round((self.top_y - (bounds.y0 - MARGIN)) / RESOLUTION)
        self.classes = np.full((rows, cols), VOID, np.uint8)
        self.surface_ids = np.zeros((rows, cols), np.int16)
        self.surfaces = [""]
        xs = self.origin_x + (np.arange(cols) + 0.5) * RESOLUTION
        ys = self.top_y - (np.arange(rows) + 0.5) * RESOLUTION
        self.xs, self.ys = xs, ys
        self.heights = (district.slope[0] * xs[None, :] + district.slope[1] * ys[:, None]).astype(np.float32)

    def window(self, rect: Rect) -> tuple[slice, slice]:
        c0 = round((rect.x0 - self.origin_x) / RESOLUTION)
        c1 = round((rect.x1 - self.origin_x) / RESOLUTION)
        r0 = round((self.top_y - rect.y1) / RESOLUTION)
        r1 = round((self.top_y - rect.y0) / RESOLUTION)
        return slice(max(r0, 0), max(r1, 0)), slice(max(c0, 0), max(c1, 0))

    def paint(self, rect: Rect, cls: int, surface: str = "") -> None:
        window = self.window(rect)
        self.classes[window] = cls
        if surface not in self.surfaces:
            self.surfaces.append(surface)
        self.surface_ids[window] = self.surfaces.index(surface)


def rasterize(district: District) -> CityRaster:
    """Paint the district's rectangles in order (roads, pavements, buildings, features, footbridges last)."""
    painter = _Painter(district)
    painter.paint(district.bounds, ROAD, "Carriageway")
    for rect, street in district.sidewalks:
        painter.paint(rect, SIDEWALK, f"Footway - {street}")
    for block in district.blocks.values():
        s = district.params.sidewalk
        painter.paint(Rect(block.x0 + s, block.y0 + s, block.x1 - s, block.y1 - s), BUILDING, "")
    for rect in district.forecourts:
        painter.paint(rect, PLAZA, "Forecourt")
    for building in district.buildings:
        painter.paint(building.rect, BUILDING, building.name)
    for rect, name in district.parks:
        painter.paint(rect, PARK, f"Park - {name}")
    for rect, name in district.plazas:
        painter.paint(rect, PLAZA, f"Plaza - {name}")
    for landmark in district.landmarks:
        painter.paint(landmark.footprint, LANDMARK, landmark.name)
    for tx, ty in district.trees:
        painter.paint(Rect(tx - 0.75, ty - 0.75, tx + 0.75, ty + 0.75), TREE, "")
    for crossing in district.crossings:
        painter.paint(crossing.rect, CROSSING, f"Crossing - {crossing.street}")
    for bridge in district.footbridges:
        for stairs in bridge.stairs:
            painter.paint(stairs, STAIRS, f"Stairs - {bridge.street} footbridge")
        for rect in bridge.railings:
            painter.paint(rect, RAILING, "")
        for rect in bridge.planters:
            painter.paint(rect, PLANTER, "")
        painter.paint(bridge.deck, DECK, f"Footbridge over {bridge.street}")
        _raise_footbridge(painter, district, bridge)
    return CityRaster(
        painter.classes,
        painter.heights,
        painter.surface_ids,
        painter.surfaces,
        painter.origin_x,
        painter.top_y,
    )


def deck_height(district: District, bridge_deck: Rect) -> float:
    cx, cy = bridge_deck.center
    return district.ground(cx, cy) + district.params.deck_height


def _raise_footbridge(painter: _Painter, district: District, bridge: object) -> None:
    """Deck cells at the deck height; stair cells rising linearly from the ground at the bottom to the deck."""
    from tango.urban.city.layout import Footbridge

    assert isinstance(bridge, Footbridge)
    top = deck_height(district, bridge.deck)
    rows, cols = painter.window(bridge.deck)
    painter.heights[rows, cols] = top
    run = district.params.stair_run
    for stairs in bridge.stairs:
        rows, cols = painter.window(stairs)
        along = painter.xs[cols][None, :] if bridge.horizontal_road else painter.ys[rows][:, None]
        fraction = np.clip((along - bridge.top_edge) / run, 0.0, 1.0)
        ground = painter.heights[rows, cols]
        painter.heights[rows, cols] = (ground + (top - ground) * (1.0 - fraction)).astype(np.float32)
