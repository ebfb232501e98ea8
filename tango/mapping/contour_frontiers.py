"""VLFM's frontier waypoints (frontier_exploration's rule): arc-length midpoints of the runs of explored-area
contour cells that touch unexplored navigable space, computed in a window around the explored area.

Rule: the explored area is dilated by 5x5 and cut to navigable cells; unexplored 8-connected pockets without
holes whose outline encloses less than `min_unexplored_px` are counted as explored; every contour of the result
(outer and holes) is walked from its second cell round to its first, and split at cells with no unexplored
navigable cell in their 3x3 neighbourhood; runs of at least two cells (or the run before the first split, when it
wraps round onto the last run, joined to it) are frontiers.
"""

from __future__ import annotations

import cv2
import numpy as np

EXPLORED_DILATION = np.ones((5, 5), np.uint8)
NEIGHBOURHOOD = np.ones((3, 3), np.uint8)


def _fill_small_pockets(unexplored: np.ndarray, min_area: float) -> np.ndarray:
    """Mask of the unexplored pockets to count as explored: hole-free, outline area below min_area, and not cut by
    the window edge (a pocket cut by the edge may continue outside, so it counts as large)."""
    contours, hierarchy = cv2.findContours(unexplored, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(unexplored)
    if not contours:
        return filled
    h, w = unexplored.shape
    links = hierarchy[0]
    small = []
    for index in np.flatnonzero((links[:, 2] < 0) & (links[:, 3] < 0)):
        contour = contours[index]
        x, y, cw, ch = cv2.boundingRect(contour)
        if x == 0 or y == 0 or x + cw == w or y + ch == h:
            continue
        if cv2.contourArea(contour) < min_area:
            small.append(contour)
    if small:
        cv2.drawContours(filled, small, -1, (1,), -1)
    return filled


def _split_runs(chain: np.ndarray, open_cells: np.ndarray) -> list[np.ndarray]:
    """Runs of a closed contour walk (K, 2) between cells that are not open; see the module rule."""
    bad = np.flatnonzero(~open_cells)
    n = len(chain)
    if bad.size == 0:
        return [chain] if n > 2 else []
    wraps = bad[0] != 0 and bad[-1] < n - 2
    runs = []
    if bad[0] > 2 or wraps:
        runs.append(chain[: bad[0]])
    ends = np.append(bad[1:], n)
    long_enough = np.flatnonzero(ends - bad > 2)
    runs.extend(chain[bad[i] + 1 : ends[i]] for i in long_enough.tolist())
    if wraps and len(runs) > 1:
        last = runs.pop()
        runs[0] = np.concatenate((last, runs[0]))
    return runs


def _midpoint(run: np.ndarray) -> np.ndarray:
    """The point halfway along the polyline through the run's cells, (x, y)."""
    steps = np.diff(run.astype(np.float64), axis=0)
    lengths = np.hypot(steps[:, 0], steps[:, 1])
    travelled = np.cumsum(lengths)
    half = travelled[-1] / 2
    index = int(np.argmax(travelled > half))
    before = travelled[index - 1] if index > 0 else 0.0
    return run[index] + (half - before) / lengths[index] * steps[index]


def detect_contour_frontiers(
    navigable: np.ndarray,
    explored: np.ndarray,
    min_unexplored_px: float,
    bounds: tuple[int, int, int, int] | None,
) -> np.ndarray:
    """(N, 2) float (row, col) frontier waypoints by VLFM's rule (module docstring) in a window around `bounds`
    (the explored bounding box, ends exclusive); pockets are judged within a margin of 2 sqrt(area) beyond it."""
    if bounds is None:
        return np.zeros((0, 2))
    pad = 4 + int(2 * np.sqrt(max(min_unexplored_px, 0.0)))
    size_r, size_c = explored.shape
    r0, r1 = max(0, bounds[0] - pad), min(size_r, bounds[1] + pad)
    c0, c1 = max(0, bounds[2] - pad), min(size_c, bounds[3] + pad)
    nav = navigable[r0:r1, c0:c1].view(np.uint8)
    seen = np.bitwise_and(cv2.dilate(explored[r0:r1, c0:c1].view(np.uint8), EXPLORED_DILATION), nav)
    unexplored = nav & (1 - seen)
    if min_unexplored_px > 0:
        pockets = _fill_small_pockets(unexplored, min_unexplored_px)
        seen |= pockets
        unexplored &= 1 - pockets
    open_near = cv2.dilate(unexplored, NEIGHBOURHOOD).view(bool)
    contours, _ = cv2.findContours(seen, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return np.zeros((0, 2))
    walks = [np.roll(contour.reshape(-1, 2), -1, axis=0) for contour in contours]
    cells = np.concatenate(walks)
    is_open = open_near[cells[:, 1], cells[:, 0]]
    lengths = np.array([len(walk) for walk in walks])
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    any_open = np.add.reduceat(is_open.astype(np.int64), starts) > 0
    midpoints = [
        _midpoint(run)
        for index in np.flatnonzero(any_open)
        for run in _split_runs(walks[index], is_open[starts[index] : starts[index] + lengths[index]])
    ]
    if not midpoints:
        return np.zeros((0, 2))
    xy = np.array(midpoints, dtype=np.float64)
    return np.stack((xy[:, 1] + r0, xy[:, 0] + c0), axis=1)
