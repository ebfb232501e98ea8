"""What task generators share: the district, its true walkable grid, geodesic fields, WGS84 conversion, and
one sign-visibility probe (the stand-in camera) for questions about what can be seen from a point."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.urban.city.layout import District, Shop, generate_district
from tango.urban.city.raster import SIDEWALK, CityRaster, rasterize
from tango.urban.routes import Grid, Point, plan, route_length
from tango.urban.taskfile import GeoPoint


@dataclass
class Reference:
    """The route a task is validated with: waypoints in local metres (several legs for multi-stop tasks)."""

    legs: list[list[Point]]
    closures: list[list[Point]] = field(default_factory=list)

    @property
    def length_m(self) -> float:
        return sum(route_length(leg) for leg in self.legs)


@dataclass
class GenContext:
    district: District
    raster: CityRaster
    rng: np.random.Generator
    _probe: Any = None

    @classmethod
    def create(cls, seed: int) -> GenContext:
        district = generate_district(seed)
        return cls(district, rasterize(district), np.random.default_rng(seed + 1000))

    @property
    def grid(self) -> Grid:
        r = self.raster
        return Grid(r.walkable, r.origin_x, r.top_y, r.resolution)

    def geo(self, point: Point, yaw: float = 0.0, label: str = "") -> GeoPoint:
        lat, lon = self.district.frame.to_geo(*point)
        return GeoPoint(
            round(lat, 8), round(lon, 8), round(self.raster.height_at(*point), 2), round(yaw % 360, 1), label
        )

    def random_sidewalk_point(self) -> Point:
        rows, cols = np.nonzero(self.raster.classes == SIDEWALK)
        index = int(self.rng.integers(len(rows)))
        return self.raster.center(int(rows[index]), int(cols[index]))

    def distances_from(self, point: Point) -> np.ndarray:
        """Geodesic metres from the point to every cell (inf where unreachable)."""
        navgrid = self.raster.navgrid()
        return navgrid.distance_field([np.array([point[0], 0.0, -point[1]])])

    def distance_at(self, field_: np.ndarray, point: Point) -> float:
        row, col = self.raster.cell(*point)
        return float(field_[row, col]) if self.raster.inside(row, col) else math.inf

    def shops_between(self, field_: np.ndarray, low: float, high: float) -> list[Shop]:
        return [s for s in self.district.shops if low <= self.distance_at(field_, s.entrance) <= high]

    def route(self, start: Point, goal: Point, avoid: list[list[Point]] | None = None) -> list[Point]:
        return plan(self.grid, start, goal, avoid or [])

    def visible_signs(self, point: Point, yaw: float, min_px: float = 10.0) -> list[dict[str, Any]]:
        """Signs legible from a point looking along yaw (the stand-in camera's ground-truth reading)."""
        if self._probe is None:
            from tango.urban.city.scene import build_scene
            from tango.urban.server.camera import FirstPersonCamera
            from tango.urban.server.world import World

            scene, signs = build_scene(self.district)
            self._probe = (FirstPersonCamera(scene, signs), World(self.district, self.raster, {}))
        camera, world = self._probe
        world.east, world.north, world.yaw, world.pitch = point[0], point[1], yaw % 360.0, 0.0
        return camera.visible_signs(world, min_px=min_px)

    def signs_around(self, point: Point, yaw: float, min_px: float = 10.0) -> dict[str, float]:
        """Every sign legible in four quarter turns from the point: name -> bearing relative to `yaw`.
        Answers are chosen with a larger `min_px` than the reader's, so they are clearly, not marginally, legible."""
        seen: dict[str, float] = {}
        for turn in (0.0, 90.0, 180.0, 270.0):
            for sign in self.visible_signs(point, yaw + turn, min_px):
                seen.setdefault(str(sign["text"]), (turn + float(sign["bearing_deg"])) % 360.0)
        return seen
