"""Each compiled map kernel (tango/mapping/kernels.py) against a straightforward numpy reference on random
inputs: the same results to the bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tango.mapping.geometry import MapGrid
from tango.mapping.kernels import (
    band_points,
    fuse_cells,
    keep_large,
    label_midpoints,
    mark_points,
    masked_medians,
    sweep_rays,
)
from tango.mapping.obstacle_map import _offsets


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_band_points_copies_the_depths_and_rays_numpy_selects(dtype: type) -> None:
    rng = np.random.default_rng(1)
    for _ in range(100):
        n = int(rng.integers(0, 3000))
        depth = rng.uniform(-0.5, 6.0, n).astype(dtype)
        depth[rng.random(n) < 0.1] = 0.0
        depth[rng.random(n) < 0.02] = np.nan
        depth[rng.random(n) < 0.05] = 5.0  # on the depth limit
        heights = rng.uniform(-1.0, 1.0, n).astype(np.float32)
        heights[rng.random(n) < 0.1] = 0.0  # height = offset: some exactly on a height limit
        rays = rng.normal(size=(n, 3)).astype(np.float32)
        offset = np.float32(rng.choice([0.15, 0.88, rng.uniform(-1.0, 1.0)]))
        low, high = 0.15, 0.88
        height = depth * heights + offset
        kept = np.flatnonzero((depth > 0) & (depth < 5.0) & (height >= low) & (height <= high))
        band = np.empty(n, np.bool_)
        depth_out, rays_out = np.full(n, -1.0, dtype), np.full((n, 3), -1.0, np.float32)
        count = band_points(
            depth, heights, rays, offset, dtype(5.0), dtype(low), dtype(high), band, depth_out, rays_out
        )
        assert count == len(kept)
        assert np.array_equal(depth_out[:count], depth.take(kept))
        assert np.array_equal(rays_out[:count], rays.take(kept, axis=0))


def _dilated(cells: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """OpenCV's dilation of a boolean layer (outside the map: nothing), as the obstacle map refreshes it."""
    return cv2.dilate(cells.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=(0,)) > 0


def test_mark_points_marks_the_cells_of_world_to_pixel() -> None:
    """The cells of the points are set, and the dilated layers kept as if recomputed from all the cells."""
    rng = np.random.default_rng(2)
    for _ in range(100):
        grid = MapGrid(int(rng.integers(10, 80)), int(rng.choice([5, 20])))
        extent = grid.size / grid.pixels_per_meter
        n = int(rng.integers(0, 400))
        depth = rng.uniform(0.0, 5.0, n).astype(np.float32)
        along_x = rng.uniform(-extent, extent, n).astype(np.float32) / 5
        along_z = rng.uniform(-extent, extent, n).astype(np.float32) / 5
        x0, z0 = np.float32(rng.uniform(-2, 2)), np.float32(rng.uniform(-2, 2))
        ties = rng.random(n) < 0.2  # points on a half pixel, where rint's ties matter
        depth[ties] = 1.0
        along_x[ties] = np.float32((rng.integers(-20, 20) + 0.5) / grid.pixels_per_meter) - x0
        x = depth * along_x + x0  # (as numpy computes it in float32)
        z = depth * along_z + z0
        before = rng.random((grid.size, grid.size)) < 0.2
        pixels = grid.world_to_pixel(np.stack((x, z), axis=1))
        pixels = pixels[grid.in_bounds(pixels)]
        fresh = pixels[~before[pixels[:, 0], pixels[:, 1]]]
        expected = before.copy()
        expected[fresh[:, 0], fresh[:, 1]] = True
        found = before.copy()
        shape = int(rng.choice([cv2.MORPH_ELLIPSE, cv2.MORPH_RECT, cv2.MORPH_CROSS]))
        footprint = cv2.getStructuringElement(shape, (int(rng.choice([1, 3, 5, 7, 9])),) * 2)
        thickening = np.ones((3, 3), np.uint8) if rng.random() < 0.8 else np.zeros((0, 0), np.uint8)
        navigable = ~_dilated(before, footprint)
        blocking = _dilated(before, thickening) if thickening.size else rng.random(before.shape) < 0.5
        blocking_before = blocking.copy()
        bounds = mark_points(
            depth, along_x, along_z, x0, z0, float(grid.pixels_per_meter), float(grid.origin),
            found.reshape(-1), grid.size, navigable.reshape(-1), _offsets(footprint),
            blocking.reshape(-1), _offsets(thickening),
        )  # fmt: skip
        assert np.array_equal(found, expected)
        assert np.array_equal(navigable, ~_dilated(expected, footprint))
        if thickening.size:
            assert np.array_equal(blocking, _dilated(expected, thickening))
        else:
            assert np.array_equal(blocking, blocking_before)
        if len(fresh):
            assert bounds == (fresh[:, 0].min(), fresh[:, 0].max(), fresh[:, 1].min(), fresh[:, 1].max())
        else:
            assert bounds == (-1, -1, -1, -1)


def test_sweep_rays_marks_each_ray_up_to_its_first_blocked_cell() -> None:
    rng = np.random.default_rng(3)
    for _ in range(100):
        size = int(rng.integers(5, 60))
        angles = rng.uniform(-np.pi, np.pi, int(rng.integers(1, 40)))
        steps = np.arange(0.0, rng.uniform(1.0, 40.0), 1.0)
        down, left = np.cos(angles)[:, None] * steps, np.sin(angles)[:, None] * steps
        origin = rng.integers(-3, size + 3, 2).astype(np.float64)
        blocking = rng.random((size, size)) < rng.uniform(0.0, 0.2)
        rows = np.rint(origin[0] + down).astype(np.int64)
        cols = np.rint(origin[1] - left).astype(np.int64)
        inside = (rows >= 0) & (rows < size) & (cols >= 0) & (cols < size)
        blocked = ~inside
        blocked[inside] = blocking[rows[inside], cols[inside]]
        seen = np.cumsum(blocked, axis=1) == 0
        explored = rng.random((size, size)) < 0.1
        expected = explored.copy()
        expected[rows[seen], cols[seen]] = True
        bounds = sweep_rays(
            down, left, origin[0], origin[1], blocking.reshape(-1), explored.reshape(-1), size
        )
        assert np.array_equal(explored, expected)
        if seen.any():
            r, c = rows[seen], cols[seen]
            assert bounds == (r.min(), r.max() + 1, c.min(), c.max() + 1)
        else:
            assert bounds == (-1, -1, -1, -1)


def _random_mask(rng: np.random.Generator) -> np.ndarray:
    shape = (int(rng.integers(1, 70)), int(rng.integers(1, 70)))
    noise = cv2.GaussianBlur(rng.random(shape), (0, 0), float(rng.uniform(0.5, 3.0)))
    return noise > np.quantile(noise, rng.uniform(0.2, 0.9))


def test_keep_large_keeps_large_and_edge_components() -> None:
    rng = np.random.default_rng(4)
    for _ in range(200):
        mask = _random_mask(rng)
        count, labels = cv2.connectedComponents(mask.view(np.uint8), connectivity=4)
        min_area = int(rng.integers(1, 40))
        keep = np.bincount(labels.reshape(-1), minlength=count) >= min_area
        for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
            keep[edge] = True
        keep[0] = False
        whole, kept = keep_large(labels, count, min_area)
        assert whole == bool(keep[1:].all())
        if not whole:
            assert np.array_equal(kept, keep[labels])


def test_label_midpoints_are_the_cells_nearest_to_the_centroids() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        mask = _random_mask(rng)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
        min_size = int(rng.integers(1, 30))
        rows, cols = np.nonzero(labels)
        lab = labels[rows, cols]
        area = np.bincount(lab, minlength=count).astype(np.float64)
        centre_r = np.bincount(lab, weights=rows, minlength=count) / np.maximum(area, 1.0)
        centre_c = np.bincount(lab, weights=cols, minlength=count) / np.maximum(area, 1.0)
        dist = (cols - centre_c[lab]) ** 2 + (rows - centre_r[lab]) ** 2
        order = np.lexsort((dist, lab))
        first = order[np.r_[0, np.flatnonzero(np.diff(lab[order])) + 1]] if len(lab) else order
        keep = stats[lab[first], cv2.CC_STAT_AREA] >= min_size
        expected = np.stack((rows[first][keep], cols[first][keep]), axis=1).astype(np.float64)
        top, left = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        window = labels[top:, left:]
        if np.count_nonzero(window) != len(lab):  # the window must hold every labelled cell
            window, top, left = labels, 0, 0
        found = label_midpoints(window, count, min_size, top, left)
        assert found.shape == expected.reshape(-1, 2).shape
        assert np.array_equal(found, expected.reshape(-1, 2))


def test_masked_medians_equal_numpys_median() -> None:
    rng = np.random.default_rng(7)
    for trial in range(300):
        shape = (int(rng.integers(1, 25)), int(rng.integers(1, 25)), int(rng.integers(1, 4)))
        crop = rng.uniform(-0.2, 1.0, shape).astype(np.float32)
        if trial % 4 == 0:  # repeated values
            crop = np.round(crop * 4) / np.float32(4)
        crop[rng.random(shape) < 0.2] = 0.0
        mask = rng.random(shape[:2]) < rng.uniform(0.0, 1.0)
        expected = np.full(shape[2], -1.0)
        for c in range(shape[2]):
            seen = crop[..., c][mask]
            seen = seen[seen > 0]
            if seen.size:
                expected[c] = float(np.median(seen))
        found = np.full(shape[2], -1.0)
        masked_medians(crop, mask, found)
        assert np.array_equal(found, expected), trial


def test_fuse_cells_applies_numpys_fusion_rule() -> None:
    rng = np.random.default_rng(8)
    for trial in range(200):
        shape = (int(rng.integers(1, 20)), int(rng.integers(1, 20)), int(rng.integers(1, 4)))
        values = rng.uniform(-1.0, 1.0, shape).astype(np.float32)
        old = rng.choice(np.array([0.0, 0.2, 0.35, 0.6, 1.0], np.float32), shape[:2])
        new = rng.choice(np.array([0.0, 0.25, 0.35, 0.5, 1.0], np.float32), shape[:2])
        new[rng.random(shape[:2]) < 0.3] = rng.uniform(0.0, 1.0)
        scores = rng.uniform(-0.2, 1.0, shape[2]).astype(np.float32)
        if trial % 10 == 0:
            scores[0] = rng.choice([np.nan, np.inf, -np.inf, 3e38])
        new_conf = new.copy()
        new_conf[(new_conf < 0.35) & (new_conf < old)] = 0
        total = old + new_conf
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            w_old, w_new = old / total, new_conf / total
            fused = values * w_old[..., None] + scores * w_new[..., None]
            expected_values = np.nan_to_num(fused)
            expected_conf = np.nan_to_num(old * w_old + new_conf * w_new)
        found_values, found_conf = values.copy(), old.copy()
        fuse_cells(found_values, found_conf, new, scores, 0.35)
        assert np.array_equal(found_values, expected_values), trial
        assert np.array_equal(found_conf, expected_conf), trial
