"""Frontier detection: explored navigable cells that border sizeable unexplored navigable space."""

from __future__ import annotations

import cv2
import numpy as np

CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)


def explored_bounds(explored: np.ndarray) -> tuple[int, int, int, int] | None:
    """Bounding box (row0, row1, col0, col1), ends exclusive, of the explored cells; None when there are none."""
    rows = np.flatnonzero(explored.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(explored.any(axis=0))
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _large_unexplored(unexplored: np.ndarray, min_area: int) -> np.ndarray:
    """Unexplored cells, except closed pockets smaller than min_area (those touching the window edge stay)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(unexplored.astype(np.uint8), connectivity=4)
    h, w = unexplored.shape
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    touches_edge = (left == 0) | (top == 0) | (right == w) | (bottom == h)
    keep = touches_edge | (stats[:, cv2.CC_STAT_AREA] >= min_area)
    keep[0] = False
    return keep[labels] if count > 1 else np.zeros_like(unexplored)


def _component_midpoints(mask: np.ndarray, min_size: int) -> np.ndarray:
    """For each 8-connected component of at least min_size cells, its cell nearest to its centroid."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros((0, 2))
    rows, cols = np.nonzero(labels)
    lab = labels[rows, cols]
    dist = (cols - centroids[lab, 0]) ** 2 + (rows - centroids[lab, 1]) ** 2
    order = np.lexsort((dist, lab))
    first = order[np.r_[0, np.flatnonzero(np.diff(lab[order])) + 1]]
    keep = stats[lab[first], cv2.CC_STAT_AREA] >= min_size
    return np.stack((rows[first][keep], cols[first][keep]), axis=1).astype(np.float64)


def detect_frontiers(
    navigable: np.ndarray,
    explored: np.ndarray,
    min_frontier_px: int,
    min_unexplored_px: int,
    bounds: tuple[int, int, int, int] | None = None,
) -> np.ndarray:
    """(N, 2) (row, col) midpoints of frontier segments of at least min_frontier_px cells.

    A frontier cell is explored and navigable and 4-adjacent to an unexplored navigable cell that belongs to an
    unexplored region of at least min_unexplored_px cells. Work is confined to the explored area's bounding box,
    padded so that most small pockets fit inside it; a pocket cut by the window edge counts as large (a spare
    frontier rather than a missed one). `bounds` (the explored bounding box) is computed when not given.
    """
    bounds = bounds or explored_bounds(explored)
    if bounds is None:
        return np.zeros((0, 2))
    pad = 2 + int(2 * np.sqrt(min_unexplored_px))
    size_r, size_c = explored.shape
    r0, r1 = max(0, bounds[0] - pad), min(size_r, bounds[1] + pad)
    c0, c1 = max(0, bounds[2] - pad), min(size_c, bounds[3] + pad)
    nav = navigable[r0:r1, c0:c1]
    seen = explored[r0:r1, c0:c1] & nav
    unexplored = _large_unexplored(nav & ~explored[r0:r1, c0:c1], min_unexplored_px)
    touching = cv2.dilate(unexplored.astype(np.uint8), CROSS).astype(bool)
    midpoints = _component_midpoints(seen & touching, min_frontier_px)
    return midpoints + np.array([r0, c0], dtype=np.float64)
