"""The agent's own map: map views it has read, merged into one walkability grid in its local frame.

Cells nobody has looked at are unknown and never planned through; a later view of a cell replaces an earlier
one (a closure drawn after it appeared wins). Plans run on the part of the grid that has been observed.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from tango.urban.agents.mapreader import FREE, UNKNOWN, MapReading
from tango.urban.routes import Grid, Point, plan

RESOLUTION = 0.5
HALF_EXTENT_M = 700.0


class ObservedMap:
    """A mosaic of map readings around the agent's start (its local frame's origin)."""

    def __init__(self) -> None:
        size = int(2 * HALF_EXTENT_M / RESOLUTION)
        self.cells = np.zeros((size, size), np.uint8)
        self.readings: list[MapReading] = []

    def _index(self, east: np.ndarray, north: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.floor((HALF_EXTENT_M - north) / RESOLUTION).astype(np.int64),
            np.floor((east + HALF_EXTENT_M) / RESOLUTION).astype(np.int64),
        )

    def add(self, reading: MapReading) -> None:
        camera = reading.camera
        half_w = camera.span_m / 2
        half_h = camera.span_m * camera.height / camera.width / 2
        r0 = int(self._index(np.array(0.0), np.array(camera.north + half_h))[0])
        r1 = int(self._index(np.array(0.0), np.array(camera.north - half_h))[0])
        c0 = int(self._index(np.array(camera.east - half_w), np.array(0.0))[1])
        c1 = int(self._index(np.array(camera.east + half_w), np.array(0.0))[1])
        r0, c0 = max(r0, 0), max(c0, 0)
        r1, c1 = min(r1, self.cells.shape[0] - 1), min(c1, self.cells.shape[1] - 1)
        if r1 < r0 or c1 < c0:
            return
        rows = np.arange(r0, r1 + 1)
        cols = np.arange(c0, c1 + 1)
        norths = HALF_EXTENT_M - (rows + 0.5) * RESOLUTION
        easts = (cols + 0.5) * RESOLUTION - HALF_EXTENT_M
        mpp = camera.metres_per_pixel
        py = np.floor(camera.height / 2 - (norths - camera.north) / mpp).astype(np.int64)
        px = np.floor(camera.width / 2 + (easts - camera.east) / mpp).astype(np.int64)
        inside_r = (py >= 0) & (py < camera.height)
        inside_c = (px >= 0) & (px < camera.width)
        values = reading.cells[
            np.clip(py, 0, camera.height - 1)[:, None], np.clip(px, 0, camera.width - 1)[None, :]
        ]
        values = np.where(inside_r[:, None] & inside_c[None, :], values, UNKNOWN)
        window = self.cells[r0 : r1 + 1, c0 : c1 + 1]
        self.cells[r0 : r1 + 1, c0 : c1 + 1] = np.where(values != UNKNOWN, values, window)
        self.readings.append(reading)

    def observed_fraction(self, east0: float, north0: float, east1: float, north1: float) -> float:
        r0, c0 = self._index(np.array(min(east0, east1)), np.array(max(north0, north1)))
        r1, c1 = self._index(np.array(max(east0, east1)), np.array(min(north0, north1)))
        window = self.cells[max(int(r0), 0) : int(r1) + 1, max(int(c0), 0) : int(c1) + 1]
        return float((window != UNKNOWN).mean()) if window.size else 0.0

    def grid(self, points: list[Point], margin_m: float = 80.0) -> Grid:
        """The observed walkable cells around the points (a crop, for fast planning)."""
        east0, east1 = min(p[0] for p in points) - margin_m, max(p[0] for p in points) + margin_m
        north0, north1 = min(p[1] for p in points) - margin_m, max(p[1] for p in points) + margin_m
        r0, c0 = (max(int(v), 0) for v in self._index(np.array(east0), np.array(north1)))
        r1, c1 = (
            min(int(v), self.cells.shape[0] - 1) for v in self._index(np.array(east1), np.array(north0))
        )
        crop = self.cells[r0 : r1 + 1, c0 : c1 + 1] == FREE
        return Grid(crop, c0 * RESOLUTION - HALF_EXTENT_M, HALF_EXTENT_M - r0 * RESOLUTION, RESOLUTION)

    def plan(self, start: Point, goal: Point, tolerance_m: float = 3.0) -> list[Point]:
        grid = self.grid([start, goal])
        return plan(grid, start, goal, goal_tolerance_m=tolerance_m)

    def distance(self, start: Point, goal: Point, tolerance_m: float = 12.0) -> float:
        route = self.plan(start, goal, tolerance_m)
        if not route:
            return math.inf
        return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(route))
