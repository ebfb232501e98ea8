"""Compiled loops of the point-goal controller (numba): the descent along a distance field and the line-of-sight
test, each computing to the bit what the numpy code it replaced did (tests/navigation/test_kernels.py and
tests/navigation/test_exact_planner_shortcuts.py compare them with their references on random inputs).

Both are short walks over a few dozen cells that numpy ran one small array operation per cell for. Compiled code
is cached on disk as for tango/mapping/kernels.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def descend_cells(field: np.ndarray, row: int, col: int, max_cells: int) -> np.ndarray:
    """(N, 2) int64 cells of the steepest 8-neighbour descent from (row, col) (a cell of `field`) through
    `field`, cells outside it counting as inf, the start first, up to max_cells steps: each step goes to the
    first smallest of the 3 x 3 block in row-major order (as numpy's argmin picks it, a NaN first of all) when
    that is strictly smaller than the current value, and none is taken from a value <= 0."""
    height, width = field.shape
    path = np.empty((max_cells + 1, 2), np.int64)
    path[0, 0], path[0, 1] = row, col
    count = 1
    for _ in range(max_cells):
        current = field[row, col]
        if current <= 0:
            break
        best, best_r, best_c, nan = np.inf, -1, -1, False
        for dr in range(3):
            for dc in range(3):
                r, c = row + dr - 1, col + dc - 1
                value = field[r, c] if 0 <= r < height and 0 <= c < width else np.inf
                if np.isnan(value):
                    nan = True
                elif value < best or best_r < 0:
                    best, best_r, best_c = value, dr, dc
        if nan or not best < current:
            break
        row, col = row + best_r - 1, col + best_c - 1
        path[count, 0], path[count, 1] = row, col
        count += 1
    return path[:count].copy()


@njit(cache=True, nogil=True)
def segment_is_free(traversable: np.ndarray, a_row: float, a_col: float, b_row: float, b_col: float) -> bool:
    """Whether the cells at rint(i * step + a), i < n, the last one b exactly (n = ceil(2 x the longer extent)
    + 1, step = (b - a) / max(n - 1, 1), all float64, as numpy computes `linspace`) are all set in
    `traversable`; negative indices count from the end as in numpy, and the scan stops at the first unset
    cell."""
    height, width = traversable.shape
    n = int(np.ceil(max(abs(b_row - a_row), abs(b_col - a_col)) * 2.0)) + 1
    step_r = (b_row - a_row) / max(n - 1, 1)
    step_c = (b_col - a_col) / max(n - 1, 1)
    for i in range(n):
        if n > 1 and i == n - 1:
            r, c = int(np.rint(b_row)), int(np.rint(b_col))
        else:
            r, c = int(np.rint(i * step_r + a_row)), int(np.rint(i * step_c + a_col))
        if r < -height or r >= height or c < -width or c >= width:
            raise IndexError("segment_is_free: a cell outside the array")
        if not traversable[r % height, c % width]:
            return False
    return True
