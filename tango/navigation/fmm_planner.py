"""Fast-marching distance fields on a window of the navigable map, and greedy descent along them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
import skfmm

from tango.navigation.kernels import descend_cells, segment_is_free

MIN_SPEED = 0.3


@dataclass
class DistanceField:
    """Geodesic distance in pixels to the goal cells over map window [row0:, col0:]; inf where unreachable.

    A field marched only up to a band (skfmm's narrow band: every value up to it is the full march's, to the
    bit) reads inf beyond it until a read of such a cell from `at` or `descend` marches again with a band
    twice as wide, and finally without one, so callers see the full field's values wherever they look.
    Descents are memoised per start pixel and length: the controller asks for the same one several times a step
    (to check the path, then to pick the waypoint).
    """

    row0: int
    col0: int
    distance: np.ndarray
    _march: Callable[[float], tuple[np.ndarray, bool]] | None = field(default=None, repr=False)
    """Marches again with a band (0: none); says whether that march covered the whole window. None once the
    field is complete."""
    band: float = 0.0
    """The band of the last march (0: complete)."""
    _whole: bool = field(default=True, repr=False)
    """Whether the last banded march spanned the whole window (the next widening marches without a band)."""
    _padded: np.ndarray | None = field(default=None, init=False, repr=False)
    _descents: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def at(self, pixel: np.ndarray) -> float:
        """Distance at a map pixel (inf outside the window)."""
        r, c = int(pixel[0]) - self.row0, int(pixel[1]) - self.col0
        if 0 <= r < self.distance.shape[0] and 0 <= c < self.distance.shape[1]:
            value = float(self.distance[r, c])
            while value == np.inf and self._march is not None:
                self._widen()
                value = float(self.distance[r, c])
            return value
        return float("inf")

    def _widen(self) -> None:
        """March again with twice the band, or without a band once a banded march spans the whole window
        (values within the old band stay the same bits)."""
        assert self._march is not None
        if self._whole:
            self.distance, _ = self._march(0.0)
            self._march, self.band = None, 0.0
        else:
            self.band *= 2.0
            self.distance, self._whole = self._march(self.band)
        self._padded = None
        self._descents.clear()

    def descend(self, pixel: np.ndarray, max_cells: int) -> np.ndarray:
        """Map pixels visited by steepest 8-neighbour descent from pixel (itself first), up to max_cells.

        Among equal neighbours the first in row-major order of the 3x3 neighbourhood wins; a step is taken only
        to a strictly smaller value. The result is shared between calls: do not modify it."""
        self.at(pixel)  # a start beyond the band completes the field first
        key = (int(pixel[0]), int(pixel[1]), int(max_cells))
        path = self._descents.get(key)
        if path is None:
            path = self._descend(key[0] - self.row0, key[1] - self.col0, max_cells)
            path.flags.writeable = False
            self._descents[key] = path
        return path

    def _descend(self, r: int, c: int, max_cells: int) -> np.ndarray:
        if self._padded is None:  # an inf border: neighbours outside the window never win
            self._padded = np.pad(self.distance, 1, constant_values=np.inf)
        path = descend_cells(self._padded, r, c, max_cells)
        path[:, 0] += self.row0
        path[:, 1] += self.col0
        return path


DISKS_KEPT = 64
"""Disk masks remembered by `disk` (the controller asks for the same one around the agent every step)."""
_disks: dict[tuple[tuple[int, ...], int, int, int], np.ndarray] = {}


def disk(shape: tuple[int, ...], centre: np.ndarray, radius: int) -> np.ndarray:
    """Boolean disk of radius pixels around centre (row, col) in an array of the given shape (read-only: the
    same mask is returned for the same arguments)."""
    key = (tuple(shape), int(centre[0]), int(centre[1]), int(radius))
    mask = _disks.get(key)
    if mask is None:
        drawn = np.zeros(shape, np.uint8)
        cv2.circle(drawn, (key[2], key[1]), radius, (1,), -1)
        mask = drawn.astype(bool)
        mask.flags.writeable = False
        if len(_disks) >= DISKS_KEPT:
            _disks.clear()
        _disks[key] = mask
    return mask


def clearance_speed(obstacles: np.ndarray, full_speed_px: float) -> np.ndarray:
    """Travel speed per cell growing with the distance to the nearest obstacle cell, from MIN_SPEED up to 1 at
    full_speed_px, so that plans keep clear of furniture and walls wherever there is room."""
    free = (~obstacles).astype(np.uint8)
    clearance = (
        cv2.distanceTransform(free, cv2.DIST_L2, 3) if obstacles.any() else np.full(obstacles.shape, 1e6)
    )
    return np.clip(clearance / full_speed_px, MIN_SPEED, 1.0)


def distance_field(
    traversable: np.ndarray,
    goal_cells: np.ndarray,
    row0: int,
    col0: int,
    speed: np.ndarray | None = None,
    band: float = 0.0,
) -> DistanceField:
    """Fast marching from the goal cells through traversable cells (goal cells count as traversable): travel
    time in pixels at unit speed, or at the given per-cell speed. A positive `band` marches only up to that
    travel time at first, on the part of the window within `band` pixels of the goal (see _march_near_goal);
    the rest is marched when something reads beyond it (see DistanceField)."""

    free = traversable | goal_cells  # (a copy: later changes to `traversable` do not reach the widenings)

    def march(narrow: float) -> tuple[np.ndarray, bool]:
        if narrow > 0:
            return _march_near_goal(free, goal_cells, speed, narrow)
        return _march(free, goal_cells, speed, 0.0), True

    if band <= 0:
        return DistanceField(row0, col0, _march(free, goal_cells, speed, 0.0))
    values, whole = march(band)
    return DistanceField(row0, col0, values, march, band, whole)


CROP_MARGIN_PX = 3
"""Cells beyond the band kept around a banded march's crop (its edge cells must stay unreached, see below)."""


def _march_near_goal(
    free: np.ndarray, goal_cells: np.ndarray, speed: np.ndarray | None, band: float
) -> tuple[np.ndarray, bool]:
    """`_march(..., band)` on the window, computed on the crop within band + CROP_MARGIN_PX cells of the goal
    cells' box; returns the values and whether the march spanned the whole window.

    Exact: fast marching freezes cells in increasing order of value, each from frozen neighbours only, and a
    cell outside the crop can enter the heap only next to a frozen cell on the crop's edge. So while no edge
    cell (an edge that is not the window's own) is frozen, the march on the crop pushes, pops and computes
    exactly what the march on the window does, up to the band; when the crop's march did reach an edge cell
    (a detour that left the crop), the window is marched instead."""
    rows, cols = np.flatnonzero(goal_cells.any(axis=1)), np.flatnonzero(goal_cells.any(axis=0))
    height, width = free.shape
    reach = int(np.ceil(band)) + CROP_MARGIN_PX
    if len(rows) == 0:
        return _march(free, goal_cells, speed, band), True
    r0, r1 = max(0, int(rows[0]) - reach), min(height, int(rows[-1]) + reach + 1)
    c0, c1 = max(0, int(cols[0]) - reach), min(width, int(cols[-1]) + reach + 1)
    if (r0, r1, c0, c1) == (0, height, 0, width):
        return _march(free, goal_cells, speed, band), True
    crop = (slice(r0, r1), slice(c0, c1))
    near = _march(free[crop], goal_cells[crop], None if speed is None else speed[crop], band)
    edges = [edge for edge, inner in ((near[0], r0 > 0), (near[-1], r1 < height)) if inner]
    edges += [edge for edge, inner in ((near[:, 0], c0 > 0), (near[:, -1], c1 < width)) if inner]
    if any(np.isfinite(edge).any() for edge in edges):
        return _march(free, goal_cells, speed, band), True
    values = np.full(free.shape, np.inf)
    values[crop] = near
    return values, False


def _march(free: np.ndarray, goal_cells: np.ndarray, speed: np.ndarray | None, narrow: float) -> np.ndarray:
    """skfmm's march (distance, or travel time with a speed) from the goal cells through the free cells (goal
    cells among them), up to travel time `narrow` (0: everywhere); inf where not reached."""
    phi = np.ones(free.shape)
    phi[goal_cells] = -1.0
    masked: np.ma.MaskedArray = np.ma.MaskedArray(phi, ~free)
    try:
        if speed is None:
            dist = skfmm.distance(masked, dx=1.0, narrow=narrow)
        else:
            dist = skfmm.travel_time(masked, speed, dx=1.0, narrow=narrow)
        values = np.ma.filled(dist.astype(float), np.inf)
    except ValueError:
        values = np.full(free.shape, np.inf)
    values[goal_cells] = 0.0
    return values


def reachable_from(traversable: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Cells 8-connected to start through traversable cells."""
    _, labels = cv2.connectedComponents(traversable.astype(np.uint8), connectivity=8)
    label = labels[int(start[0]), int(start[1])]
    if label == 0:
        return np.zeros_like(traversable)
    return labels == label


def line_is_free(traversable: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether every cell on the straight segment a -> b (row, col, window coordinates) is traversable: the
    cells at `np.rint(np.linspace(a, b, n))` for n = 2 x the longer extent + 1, computed as linspace does
    (i * step + a, the last one b exactly) for both coordinates at once (kernels.segment_is_free)."""
    return bool(segment_is_free(traversable, float(a[0]), float(a[1]), float(b[0]), float(b[1])))
