"""Compiled loops of the map updates (numba), each computing to the bit what the numpy code it replaced did.

The agent updates its maps every step, and numpy spends most of that time making whole-array temporaries that
a single loop does not need: a ray that hits a wall after ten cells still had all its cells rounded, looked up
and masked. Each kernel here is one pass with the same floating-point operations in the same order (numba does
not fuse a multiply and an add unless asked to, and it is not), so the maps and every decision made on them are
unchanged; tests/mapping/test_kernels.py compares each with its numpy reference on random inputs.

Compiled code is cached on disk (`cache=True`): next to this file when its folder is writable, else in numba's
per-user cache folder (or NUMBA_CACHE_DIR when set), so a read-only install compiles once per user, not once per
worker; the first run on a machine compiles for a few seconds (BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def sweep_rays(
    down: np.ndarray,
    left: np.ndarray,
    origin_row: float,
    origin_col: float,
    blocking: np.ndarray,
    explored: np.ndarray,
    size: int,
) -> tuple[int, int, int, int]:
    """Mark as explored (in the flat `explored`, a size x size map) each ray's cells up to, not including, its
    first cell that is off the map or set in the flat `blocking`; ray i's cell j is (rint(origin_row +
    down[i, j]), rint(origin_col - left[i, j])). Returns the marked cells' bounds (row0, row1, col0, col1),
    ends exclusive, or (-1, -1, -1, -1) when no ray marked a cell."""
    row0, row1, col0, col1 = size, -1, size, -1
    for i in range(down.shape[0]):
        for j in range(down.shape[1]):
            row = int(np.rint(origin_row + down[i, j]))
            col = int(np.rint(origin_col - left[i, j]))
            if row < 0 or row >= size or col < 0 or col >= size:
                break
            cell = row * size + col
            if blocking[cell]:
                break
            explored[cell] = True
            row0, row1 = min(row0, row), max(row1, row)
            col0, col1 = min(col0, col), max(col1, col)
    if row1 < 0:
        return -1, -1, -1, -1
    return row0, row1 + 1, col0, col1 + 1


@njit(cache=True, nogil=True)
def band_points(
    depth: np.ndarray,
    heights: np.ndarray,
    rays: np.ndarray,
    offset: np.float32,
    max_depth: np.float32,
    low: np.float32,
    high: np.float32,
    band: np.ndarray,
    depth_out: np.ndarray,
    rays_out: np.ndarray,
) -> int:
    """Copy to the front of `depth_out` and `rays_out` (N, 3), in pixel order, the depths and camera rays of
    the pixels with 0 < depth < max_depth whose height `depth * heights + offset` (in the depth's type, as numpy
    computes it) lies in [low, high]; returns how many. `band` (bool, one per pixel) is scratch: the test runs
    as one branch-free pass that the compiler vectorises, then a second pass copies the chosen pixels."""
    count = depth.shape[0]
    for i in range(count):
        d = depth[i]
        height = d * heights[i] + offset
        band[i] = (d > 0) & (d < max_depth) & (height >= low) & (height <= high)
    kept = 0
    for i in range(count):
        if band[i]:
            depth_out[kept] = depth[i]
            rays_out[kept, 0] = rays[i, 0]
            rays_out[kept, 1] = rays[i, 1]
            rays_out[kept, 2] = rays[i, 2]
            kept += 1
    return kept


@njit(cache=True, nogil=True)
def mark_points(
    depth: np.ndarray,
    along_x: np.ndarray,
    along_z: np.ndarray,
    x0: np.float32,
    z0: np.float32,
    pixels_per_meter: float,
    origin: float,
    obstacles: np.ndarray,
    size: int,
    navigable: np.ndarray,
    footprint: np.ndarray,
    blocking: np.ndarray,
    thickening: np.ndarray,
) -> tuple[int, int, int, int]:
    """Set in the flat `obstacles` (size x size) the cells of the world points x = depth * along_x + x0,
    z = depth * along_z + z0 (in the arrays' type, as numpy computes them) as MapGrid.world_to_cells places them
    (row = origin - rint(z * ppm), col = origin + rint(x * ppm), in float64), those off the map ignored, and
    keep the layers derived from them up to date: around each newly set cell, the cells at the (N, 2) (row,
    col) offsets `footprint` are cleared in the flat `navigable` and those at `thickening` set in the flat
    `blocking` (a dilation of the obstacles only grows by the dilations of the new cells). Returns the bounds
    (row0, row1, col0, col1), ends inclusive, of the newly set cells, or (-1, -1, -1, -1) when there is none."""
    row0, row1, col0, col1 = size, -1, size, -1
    for i in range(depth.shape[0]):
        x = depth[i] * along_x[i] + x0
        z = depth[i] * along_z[i] + z0
        row = int(origin - np.rint(np.float64(z) * pixels_per_meter))
        col = int(np.rint(np.float64(x) * pixels_per_meter) + origin)
        if row < 0 or row >= size or col < 0 or col >= size:
            continue
        cell = row * size + col
        if obstacles[cell]:
            continue
        obstacles[cell] = True
        _stamp(navigable, row, col, footprint, size, False)
        _stamp(blocking, row, col, thickening, size, True)
        row0, row1 = min(row0, row), max(row1, row)
        col0, col1 = min(col0, col), max(col1, col)
    if row1 < 0:
        return -1, -1, -1, -1
    return row0, row1, col0, col1


@njit(cache=True, nogil=True, inline="always")
def _stamp(layer: np.ndarray, row: int, col: int, offsets: np.ndarray, size: int, value: bool) -> None:
    """Write `value` into the flat size x size `layer` at (row, col) + each (N, 2) offset inside the map."""
    for k in range(offsets.shape[0]):
        r, c = row + offsets[k, 0], col + offsets[k, 1]
        if r >= 0 and r < size and c >= 0 and c < size:
            layer[r * size + c] = value


@njit(cache=True, nogil=True)
def keep_large(labels: np.ndarray, count: int, min_area: int) -> tuple[bool, np.ndarray]:
    """For labelled components (0: background), whether every component is kept, and the mask of the kept
    ones' cells: those of at least min_area cells or with a cell on the array's edge."""
    height, width = labels.shape
    area = np.zeros(count, np.int64)
    for r in range(height):
        for c in range(width):
            area[labels[r, c]] += 1
    keep = area >= min_area
    for c in range(width):
        keep[labels[0, c]] = True
        keep[labels[height - 1, c]] = True
    for r in range(height):
        keep[labels[r, 0]] = True
        keep[labels[r, width - 1]] = True
    keep[0] = False
    if keep[1:].all():
        return True, np.zeros((0, 0), np.bool_)
    mask = np.empty((height, width), np.bool_)
    for r in range(height):
        for c in range(width):
            mask[r, c] = keep[labels[r, c]]
    return False, mask


@njit(cache=True, nogil=True)
def label_midpoints(labels: np.ndarray, count: int, min_size: int, row0: int, col0: int) -> np.ndarray:
    """(N, 2) float (row, col): for each labelled component (labels 1 .. count - 1, in that order) of at least
    min_size cells, its cell nearest to its centroid (the first in row-major order among equally near ones),
    where `labels` is the window of a larger label array whose cell (0, 0) is (row0, col0), and rows and
    columns count in that larger array; the centroid is the cells' integer row and column sums over their
    count, as OpenCV's statistics give it, and the squared distance (col - centroid col)**2 + (row - centroid
    row)**2 in float64."""
    height, width = labels.shape
    area = np.zeros(count, np.int64)
    row_sum = np.zeros(count, np.int64)
    col_sum = np.zeros(count, np.int64)
    for r in range(height):
        for c in range(width):
            label = labels[r, c]
            if label:
                area[label] += 1
                row_sum[label] += r + row0
                col_sum[label] += c + col0
    centre_r = np.empty(count)
    centre_c = np.empty(count)
    for label in range(count):
        cells = max(float(area[label]), 1.0)
        centre_r[label] = np.float64(row_sum[label]) / cells
        centre_c[label] = np.float64(col_sum[label]) / cells
    best = np.full(count, np.inf)
    best_r = np.zeros(count, np.int64)
    best_c = np.zeros(count, np.int64)
    for r in range(height):
        for c in range(width):
            label = labels[r, c]
            if label:
                dc = np.float64(c + col0) - centre_c[label]
                dr = np.float64(r + row0) - centre_r[label]
                dist = dc * dc + dr * dr
                if dist < best[label]:
                    best[label], best_r[label], best_c[label] = dist, r + row0, c + col0
    kept = 0
    for label in range(1, count):
        kept += area[label] >= min_size
    out = np.empty((kept, 2))
    k = 0
    for label in range(1, count):
        if area[label] >= min_size:
            out[k, 0], out[k, 1] = best_r[label], best_c[label]
            k += 1
    return out


@njit(cache=True, nogil=True)
def masked_medians(crop: np.ndarray, mask: np.ndarray, out: np.ndarray) -> None:
    """out[c] = the median of the positive values of the float32 crop[..., c] where `mask` (crop's rows and
    columns) is set, as numpy's median computes it (the middle value, or the float32 sum of the two middle ones
    halved in float32); out[c] is left as it is where there is none."""
    height, width, channels = crop.shape
    seen = np.empty(height * width, crop.dtype)
    for c in range(channels):
        count = 0
        for r in range(height):
            for k in range(width):
                if mask[r, k] and crop[r, k, c] > 0:
                    seen[count] = crop[r, k, c]
                    count += 1
        if count == 0:
            continue
        half = count // 2
        part = np.partition(seen[:count], half)  # (the value below the middle: the largest of the lower part)
        if count % 2:
            out[c] = part[half]
        else:
            out[c] = np.float32(part[:half].max() + part[half]) / np.float32(2.0)


FLOAT32_MAX = np.float32(np.finfo(np.float32).max)


@njit(cache=True, nogil=True, error_model="numpy")
def _finite(value: np.float32) -> np.float32:
    """np.nan_to_num of one float32: NaN -> 0, +-inf -> +-the largest float32."""
    if np.isnan(value):
        return np.float32(0.0)
    if np.isinf(value):
        return FLOAT32_MAX if value > 0 else -FLOAT32_MAX
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def fuse_cells(
    values: np.ndarray,
    confidence: np.ndarray,
    new_confidence: np.ndarray,
    scores: np.ndarray,
    threshold: float,
) -> None:
    """ValueMap's fusion rule in place over a window, all float32 as numpy computes it: a new confidence below
    `threshold` that is also below the stored one counts as 0; with t = c_old + c_new, v = nan_to_num(v_old *
    (c_old / t) + score * (c_new / t)) per channel and c = nan_to_num(c_old * (c_old / t) + c_new * (c_new /
    t)) (0 / 0 is NaN, hence 0)."""
    height, width, channels = values.shape
    limit = np.float32(threshold)
    for r in range(height):
        for c in range(width):
            old = confidence[r, c]
            new = new_confidence[r, c]
            if new < limit and new < old:
                new = np.float32(0.0)
            total = old + new
            w_old = old / total
            w_new = new / total
            for k in range(channels):
                values[r, c, k] = _finite(values[r, c, k] * w_old + scores[k] * w_new)
            confidence[r, c] = _finite(old * w_old + new * w_new)
