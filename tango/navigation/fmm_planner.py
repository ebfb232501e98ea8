"""Fast-marching distance fields on a window of the navigable map, and greedy descent along them."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tango.navigation.kernels import descend_cells, segment_is_free
from tango.navigation.marcher import TravelTimes

MIN_SPEED = 0.3


READ_MARGIN_PX = 10.0
"""How far past a read cell's travel time a field is marched: a descent from it compares the times of cells
below it, and a march can still give a cell a time a little (about one cell's crossing) below the time last
frozen, so the march goes on well past the read time before those comparisons are trusted."""


@dataclass
class DistanceField:
    """Geodesic distance in pixels to the goal cells over map window [row0:, col0:]; inf where unreachable.

    The field is marched lazily, from the goal outward: a read from `at` or `descend` of a cell not yet reached
    marches on until it is, and on to its time plus READ_MARGIN_PX (tango.navigation.marcher: every value
    frozen is the complete march's, to the bit, so callers see the full field's values wherever they look, and
    a plan costs the cells up to the agent's travel time rather than up to a guessed band). `distance` is the
    march's own array, filled further by each read that marches.
    Descents are memoised per start pixel and length: the controller asks for the same one several times a step
    (to check the path, then to pick the waypoint).
    """

    row0: int
    col0: int
    distance: np.ndarray
    _times: TravelTimes | None = field(default=None, repr=False)
    """The march, None once complete."""
    _covered: float = field(default=-np.inf, init=False, repr=False)
    """Every cell with a time up to this is frozen (READ_MARGIN_PX past the last read that marched)."""
    _descents: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def at(self, pixel: np.ndarray) -> float:
        """Distance at a map pixel (inf outside the window)."""
        r, c = int(pixel[0]) - self.row0, int(pixel[1]) - self.col0
        if 0 <= r < self.distance.shape[0] and 0 <= c < self.distance.shape[1]:
            if self.distance[r, c] == np.inf:
                self._reach(r, c)
            return float(self.distance[r, c])
        return float("inf")

    def _reach(self, r: int, c: int) -> None:
        """March until window cell (r, c) is reached and READ_MARGIN_PX past its time (or to the end), unless
        that is done."""
        if self._times is None or self.distance[r, c] + READ_MARGIN_PX <= self._covered:
            return
        self._times.march_to(r * self.distance.shape[1] + c, READ_MARGIN_PX)
        self._covered = float(self.distance[r, c]) + READ_MARGIN_PX
        if not self._times.queued:
            self._times, self._covered = None, np.inf
        self._descents.clear()

    def descend(self, pixel: np.ndarray, max_cells: int) -> np.ndarray:
        """Map pixels visited by steepest 8-neighbour descent from pixel (itself first), up to max_cells.

        Among equal neighbours the first in row-major order of the 3x3 neighbourhood wins; a step is taken only
        to a strictly smaller value. The result is shared between calls: do not modify it."""
        key = (int(pixel[0]), int(pixel[1]), int(max_cells))
        path = self._descents.get(key)
        if path is not None:
            return path
        r, c = key[0] - self.row0, key[1] - self.col0
        if 0 <= r < self.distance.shape[0] and 0 <= c < self.distance.shape[1]:
            self._reach(r, c)  # (the cells it compares are all below the start's time)
        path = descend_cells(self.distance, r, c, max_cells)  # (neighbours outside the window never win)
        path[:, 0] += self.row0
        path[:, 1] += self.col0
        path.flags.writeable = False
        self._descents[key] = path
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
    traversable: np.ndarray, goal_cells: np.ndarray, row0: int, col0: int, speed: np.ndarray
) -> DistanceField:
    """Fast marching from the goal cells through traversable cells (goal cells count as traversable): travel
    time in pixels at the given per-cell speed (tango.navigation.marcher, scikit-fmm's second-order march to
    the bit), marched as far as reads need (see DistanceField)."""
    times = TravelTimes(traversable | goal_cells, goal_cells, speed)
    return DistanceField(row0, col0, times.values.reshape(times.shape), times if times.queued else None)


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
