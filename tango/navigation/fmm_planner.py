"""Fast-marching distance fields on a window of the navigable map, and greedy descent along them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from tango.navigation.kernels import descend_cells, segment_is_free
from tango.navigation.marcher import TravelTimes

MIN_SPEED = 0.3


@dataclass
class DistanceField:
    """Geodesic distance in pixels to the goal cells over map window [row0:, col0:]; inf where unreachable.

    A field marched only up to a band (a narrow band: every value up to it is the full march's, to the bit)
    reads inf beyond it until a read of such a cell from `at` or `descend` marches on to a band twice as wide,
    and finally without one, so callers see the full field's values wherever they look. The marches go on
    from where the last one stopped, filling the same `distance` array.
    Descents are memoised per start pixel and length: the controller asks for the same one several times a step
    (to check the path, then to pick the waypoint).
    """

    row0: int
    col0: int
    distance: np.ndarray
    _march: Callable[[float], tuple[np.ndarray, bool]] | None = field(default=None, repr=False)
    """Marches on to a band (0: none); says whether the march left the goal's neighbourhood (see
    _stays_near_goal). None once the field is complete."""
    band: float = 0.0
    """The band of the last march (0: complete)."""
    _whole: bool = field(default=True, repr=False)
    """Whether the last banded march left the goal's neighbourhood (the next widening marches without a band)."""
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
    speed: np.ndarray,
    band: float = 0.0,
) -> DistanceField:
    """Fast marching from the goal cells through traversable cells (goal cells count as traversable): travel
    time in pixels at the given per-cell speed (tango.navigation.marcher, scikit-fmm's second-order march to
    the bit). A positive `band` marches only up to that travel time at first; the rest is marched when
    something reads beyond it (see DistanceField), with twice the band while the march stays near the goal
    (see _stays_near_goal), else to the end."""
    times = TravelTimes(traversable | goal_cells, goal_cells, speed)
    if band <= 0:
        return DistanceField(row0, col0, times.march(0.0))

    def march(narrow: float) -> tuple[np.ndarray, bool]:
        values = times.march(narrow)
        return values, narrow <= 0 or not _stays_near_goal(values, goal_cells, narrow)

    values, whole = march(band)
    return DistanceField(row0, col0, values, march, band, whole)


NEAR_GOAL_MARGIN_PX = 3
"""Cells beyond the band around the goal cells' box within which a banded march counts as near the goal."""


def _stays_near_goal(values: np.ndarray, goal_cells: np.ndarray, band: float) -> bool:
    """Whether a march up to `band` reached no cell on the edge of the window's part within band +
    NEAR_GOAL_MARGIN_PX cells of the goal cells' box (an edge that is not the window's own), that part not
    being the whole window. Such a march is widened to twice its band when read beyond it, any other to the
    end: this keeps the widening schedule (and so every field a plan reads) of the planner that marched such
    parts on their own crop."""
    rows, cols = np.flatnonzero(goal_cells.any(axis=1)), np.flatnonzero(goal_cells.any(axis=0))
    height, width = values.shape
    if len(rows) == 0:
        return False
    reach = int(np.ceil(band)) + NEAR_GOAL_MARGIN_PX
    r0, r1 = max(0, int(rows[0]) - reach), min(height, int(rows[-1]) + reach + 1)
    c0, c1 = max(0, int(cols[0]) - reach), min(width, int(cols[-1]) + reach + 1)
    if (r0, r1, c0, c1) == (0, height, 0, width):
        return False
    edges = [values[r, c0:c1] for r, inner in ((r0, r0 > 0), (r1 - 1, r1 < height)) if inner]
    edges += [values[r0:r1, c] for c, inner in ((c0, c0 > 0), (c1 - 1, c1 < width)) if inner]
    return not any(np.isfinite(edge).any() for edge in edges)


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
