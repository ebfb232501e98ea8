"""Frontier detection: explored navigable cells that border sizeable unexplored navigable space."""

from __future__ import annotations

import cv2
import numpy as np

from tango.mapping.kernels import keep_large, label_midpoints

CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)


def explored_bounds(explored: np.ndarray) -> tuple[int, int, int, int] | None:
    """Bounding box (row0, row1, col0, col1), ends exclusive, of the explored cells; None when there are none."""
    rows = np.flatnonzero(explored.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(explored.any(axis=0))
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _large_unexplored(unexplored: np.ndarray, min_area: int) -> np.ndarray:
    """Unexplored cells, except closed pockets smaller than min_area (those touching the window edge stay); the
    input itself when there is no such pocket.

    The 4-connected labels come without OpenCV's statistics (which cost twice the labelling); the areas, the
    components on the window's edge and the kept cells come from one compiled pass each (kernels.keep_large)."""
    count, labels = cv2.connectedComponents(unexplored.view(np.uint8), connectivity=4)
    if count <= 1:
        return np.zeros_like(unexplored)
    whole, kept = keep_large(labels, count, min_area)
    return unexplored if whole else kept


def _component_midpoints(mask: np.ndarray, min_size: int) -> np.ndarray:
    """For each 8-connected component of at least min_size cells, its cell nearest to its centroid.

    Components in OpenCV's label order; each centroid is its cells' column and row sums over its area, as
    `connectedComponentsWithStats` computes it (exact integer sums, one division), in the mask's frame; the
    sums and the nearest cells come from the labels in one compiled pass (kernels.label_midpoints).
    Only the mask's bounding box is labelled, widened to start on an even row and column: OpenCV labels
    8-connected components by 2 x 2 blocks from the array's corner, so a box on the same block grid, with
    nothing outside it, numbers them as the whole mask does (an odd start can change their order)."""
    left, top, width, height = cv2.boundingRect(mask.view(np.uint8))
    if width == 0:
        return np.zeros((0, 2))
    top, left, bottom, right = top - top % 2, left - left % 2, top + height, left + width
    count, labels = cv2.connectedComponents(mask[top:bottom, left:right].view(np.uint8), connectivity=8)
    return label_midpoints(labels, count, min_size, top, left)


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
    nav, seen = navigable[r0:r1, c0:c1], explored[r0:r1, c0:c1]
    unexplored = _large_unexplored(np.greater(nav, seen), min_unexplored_px)  # (nav and not seen, one pass)
    frontier = cv2.dilate(unexplored.view(np.uint8), CROSS).view(bool)
    frontier &= nav
    frontier &= seen
    midpoints = _component_midpoints(frontier, min_frontier_px)
    return midpoints + np.array([r0, c0], dtype=np.float64)
