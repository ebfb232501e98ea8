"""Fast-marching distance fields on a window of the navigable map, and greedy descent along them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import skfmm

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


def distance_field(traversable: np.ndarray, goal_cells: np.ndarray, row0: int, col0: int) -> DistanceField:
    """Fast marching from the goal cells through traversable cells (goal cells count as traversable)."""
    phi = np.ones(traversable.shape)
    phi[goal_cells] = -1.0
    free = traversable | goal_cells
    try:
        dist = skfmm.distance(np.ma.MaskedArray(phi, ~free), dx=1.0)
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
