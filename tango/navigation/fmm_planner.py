"""Fast-marching distance fields on a window of the navigable map, and greedy descent along them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import skfmm

MIN_SPEED = 0.3
NEIGHBOURS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)])


@dataclass
class DistanceField:
    """Geodesic distance in pixels to the goal cells over map window [row0:, col0:]; inf where unreachable."""

    row0: int
    col0: int
    distance: np.ndarray

    def at(self, pixel: np.ndarray) -> float:
        """Distance at a map pixel (inf outside the window)."""
        r, c = int(pixel[0]) - self.row0, int(pixel[1]) - self.col0
        if 0 <= r < self.distance.shape[0] and 0 <= c < self.distance.shape[1]:
            return float(self.distance[r, c])
        return float("inf")

    def descend(self, pixel: np.ndarray, max_cells: int) -> np.ndarray:
        """Map pixels visited by steepest 8-neighbour descent from pixel (itself first), up to max_cells."""
        h, w = self.distance.shape
        r, c = int(pixel[0]) - self.row0, int(pixel[1]) - self.col0
        path = [(r, c)]
        for _ in range(max_cells):
            current = self.distance[r, c]
            if current <= 0:
                break
            nr, nc = NEIGHBOURS[:, 0] + r, NEIGHBOURS[:, 1] + c
            ok = (nr >= 0) & (nr < h) & (nc >= 0) & (nc < w)
            values = np.full(len(NEIGHBOURS), np.inf)
            values[ok] = self.distance[nr[ok], nc[ok]]
            best = int(np.argmin(values))
            if not values[best] < current:
                break
            r, c = int(nr[best]), int(nc[best])
            path.append((r, c))
        return np.array(path) + np.array([self.row0, self.col0])


def disk(shape: tuple[int, ...], centre: np.ndarray, radius: int) -> np.ndarray:
    """Boolean disk of radius pixels around centre (row, col) in an array of the given shape."""
    mask = np.zeros(shape, np.uint8)
    cv2.circle(mask, (int(centre[1]), int(centre[0])), radius, (1,), -1)
    return mask.astype(bool)


def clearance_speed(obstacles: np.ndarray, full_speed_px: float) -> np.ndarray:
    """Travel speed per cell growing with the distance to the nearest obstacle cell, from MIN_SPEED up to 1 at
    full_speed_px, so that plans keep clear of furniture and walls wherever there is room."""
    free = (~obstacles).astype(np.uint8)
    clearance = (
        cv2.distanceTransform(free, cv2.DIST_L2, 3) if obstacles.any() else np.full(obstacles.shape, 1e6)
    )
    return np.clip(clearance / full_speed_px, MIN_SPEED, 1.0)


def distance_field(
    traversable: np.ndarray, goal_cells: np.ndarray, row0: int, col0: int, speed: np.ndarray | None = None
) -> DistanceField:
    """Fast marching from the goal cells through traversable cells (goal cells count as traversable): travel
    time in pixels at unit speed, or at the given per-cell speed."""
    phi = np.ones(traversable.shape)
    phi[goal_cells] = -1.0
    free = traversable | goal_cells
    try:
        masked: np.ma.MaskedArray = np.ma.MaskedArray(phi, ~free)
        dist = skfmm.distance(masked, dx=1.0) if speed is None else skfmm.travel_time(masked, speed, dx=1.0)
        values = np.ma.filled(dist.astype(float), np.inf)
    except ValueError:
        values = np.full(traversable.shape, np.inf)
    values[goal_cells] = 0.0
    return DistanceField(row0, col0, values)


def reachable_from(traversable: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Cells 8-connected to start through traversable cells."""
    _, labels = cv2.connectedComponents(traversable.astype(np.uint8), connectivity=8)
    label = labels[int(start[0]), int(start[1])]
    if label == 0:
        return np.zeros_like(traversable)
    return labels == label


def line_is_free(traversable: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether every cell on the straight segment a -> b (row, col, window coordinates) is traversable."""
    n = int(np.ceil(np.abs(b - a).max() * 2)) + 1
    rows = np.rint(np.linspace(a[0], b[0], n)).astype(int)
    cols = np.rint(np.linspace(a[1], b[1], n)).astype(int)
    return bool(traversable[rows, cols].all())
