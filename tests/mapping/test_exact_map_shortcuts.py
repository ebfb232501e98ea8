"""Shortcuts the maps take every frame give the direct computation's results to the bit, on random inputs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tango.mapping import frontiers
from tango.mapping.config import MapConfig
from tango.mapping.fov_patch import FovPatch, _warp_cropped, confidence_cone
from tango.mapping.frontiers import explored_bounds
from tango.mapping.geometry import CameraRays, camera_yaw, column_reach, effective_depth
from tango.mapping.obstacle_map import HEIGHT_TABLES, ObstacleMap
from tango.mapping.value_map import DECISION_THRESHOLD, ValueMap


def test_column_reach_is_the_column_maximum_of_the_effective_depth() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        shape = (int(rng.integers(1, 30)), int(rng.integers(1, 30)))
        depth = rng.uniform(-1.0, 7.0, shape).astype(np.float32)
        specials = rng.random(shape)
        depth[specials < 0.05] = 0.0
        depth[(specials >= 0.05) & (specials < 0.07)] = np.nan
        depth[(specials >= 0.07) & (specials < 0.09)] = np.inf
        depth[(specials >= 0.09) & (specials < 0.1)] = -np.inf
        expected = effective_depth(depth, 0.5, 5.0).max(axis=0)
        reach = column_reach(depth, 0.5, 5.0)
        assert reach.dtype == expected.dtype
        assert np.array_equal(reach, expected, equal_nan=True)


def test_cropped_warp_equals_opencvs_whole_warp() -> None:
    """The FOV cone rotated into only the part that can hold set cells equals the whole warp, for cones cut at
    random reaches and any heading (some with nothing left)."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        radius = int(rng.integers(1, 60))
        cone = confidence_cone(np.deg2rad(rng.uniform(20.0, 170.0)), radius)
        side = cone.shape[0]
        outline = np.stack((np.linspace(0, side - 1, 9), rng.uniform(0, side, 9)), axis=1)
        outline = np.concatenate(([[0, side - 1]], outline, [[side - 1, side - 1]])).astype(np.int32)
        cv2.drawContours(cone, [outline], -1, (0,), -1)
        if rng.random() < 0.05:
            cone[...] = 0.0
        rotation = cv2.getRotationMatrix2D((side // 2, side // 2), rng.uniform(-360.0, 360.0), 1.0)
        expected = cv2.warpAffine(cone, rotation, (side, side), borderValue=(0,)).astype(np.float32)
        found = _warp_cropped(cone, rotation)
        assert found.dtype == np.float32
        assert np.array_equal(found, expected)


def _fuse_whole_patch(
    values: np.ndarray, confidence: np.ndarray, patch: FovPatch, scores: np.ndarray
) -> None:
    """The fusion rule over every cell of the patch (ValueMap's documented rule, no shortcut)."""
    h, w = patch.confidence.shape
    rows, cols = slice(patch.row0, patch.row0 + h), slice(patch.col0, patch.col0 + w)
    old_conf = confidence[rows, cols]
    new_conf = patch.confidence.copy()
    new_conf[(new_conf < DECISION_THRESHOLD) & (new_conf < old_conf)] = 0
    total = old_conf + new_conf
    with np.errstate(divide="ignore", invalid="ignore"):
        w_old, w_new = old_conf / total, new_conf / total
    fused = values[rows, cols] * w_old[..., None] + scores * w_new[..., None]
    values[rows, cols] = np.nan_to_num(fused)
    confidence[rows, cols] = np.nan_to_num(old_conf * w_old + new_conf * w_new)


@pytest.mark.parametrize("channels", [1, 3])
def test_fusing_only_the_seen_cells_equals_fusing_the_whole_patch(channels: int) -> None:
    rng = np.random.default_rng(channels)
    config = MapConfig(size_px=60)
    value_map = ValueMap(channels, config)
    values = value_map.values.copy()
    confidence = value_map.confidence.copy()
    for step in range(300):
        h, w = int(rng.integers(1, 25)), int(rng.integers(1, 25))
        conf = rng.uniform(0.25, 1.0, (h, w)).astype(np.float32)
        conf[rng.random((h, w)) < rng.uniform(0.0, 1.0)] = 0.0  # unseen cells, anywhere in the patch
        if step % 17 == 0:
            conf[:] = 0.0
        patch = FovPatch(int(rng.integers(0, 60 - h + 1)), int(rng.integers(0, 60 - w + 1)), conf)
        scores = rng.uniform(-0.2, 1.0, channels).astype(np.float32)
        if step % 41 == 0:
            scores[0] = np.nan  # a non-finite score zeroes the unseen cells of the patch too
        value_map.fuse(patch, scores)
        _fuse_whole_patch(values, confidence, patch, scores)
        assert np.array_equal(value_map.values, values), step
        assert np.array_equal(value_map.confidence, confidence), step


def _pose(rng: np.random.Generator, half_extent_m: float) -> np.ndarray:
    """A camera at a random place and heading, pitched a little (so depth hits the floor band too)."""
    yaw, pitch = rng.uniform(-np.pi, np.pi), rng.uniform(-0.4, 0.2)
    cy, sy, cp, sp = np.cos(yaw), np.sin(yaw), np.cos(pitch), np.sin(pitch)
    pose = np.eye(4)
    pose[:3, :3] = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]]) @ np.array(
        [[1, 0, 0], [0, cp, -sp], [0, sp, cp]]
    )
    pose[:3, 3] = [
        rng.uniform(-half_extent_m, half_extent_m),
        0.9,
        rng.uniform(-half_extent_m, half_extent_m),
    ]
    return pose


def _reveal_reference(omap: ObstacleMap, camera_pose: np.ndarray, hfov_deg: float) -> None:
    """The explored-area sweep computed ray by ray over the whole fan with bounds checks (no cached tables)."""
    origin = omap.grid.world_to_pixel(camera_pose[:3, 3][None])[0].astype(np.float64)
    max_len = omap.config.max_depth * omap.config.pixels_per_meter
    half_fov = np.deg2rad(hfov_deg) / 2.0
    angles = camera_yaw(camera_pose) + np.linspace(
        -half_fov, half_fov, int(np.ceil(2.0 * half_fov * max_len)) + 1
    )
    steps = np.arange(0.0, max_len + 1.0, 1.0)
    rows = np.rint(origin[0] + np.cos(angles)[:, None] * steps[None, :]).astype(np.int64)
    cols = np.rint(origin[1] - np.sin(angles)[:, None] * steps[None, :]).astype(np.int64)
    size = omap.config.size_px
    inside = (rows >= 0) & (rows < size) & (cols >= 0) & (cols < size)
    blocked = ~inside
    blocked[inside] = omap._ray_blocking[rows[inside], cols[inside]]
    first_block = np.where(blocked.any(axis=1), blocked.argmax(axis=1), steps.size)
    seen = np.arange(steps.size)[None, :] < first_block[:, None]
    if seen.any():
        rows, cols = rows[seen], cols[seen]
        omap.explored[rows, cols] = True
        omap._grow_bounds((int(rows.min()), int(rows.max()) + 1, int(cols.min()), int(cols.max()) + 1))
        omap.version += 1


def _add_depth_reference(
    omap: ObstacleMap, depth: np.ndarray, intrinsics: np.ndarray, pose: np.ndarray
) -> None:
    """Obstacle cells from depth the direct way: every point transformed, converted with world_to_pixel, and
    marked through boolean masks."""
    cfg = omap.config
    rays = CameraRays().get(depth.shape, intrinsics)
    d = depth.reshape(-1)
    rotation = pose[:3, :3].astype(np.float32)
    height = d * (rays @ rotation[1]) + np.float32(pose[1, 3] - 0.0)
    keep = (
        (d > 0)
        & (d < cfg.max_depth)
        & (height >= cfg.min_obstacle_height)
        & (height <= cfg.max_obstacle_height)
    )
    kept = np.flatnonzero(keep)
    d, band = d.take(kept), rays.take(kept, axis=0)
    x = d * (band @ rotation[0]) + np.float32(pose[0, 3])
    z = d * (band @ rotation[2]) + np.float32(pose[2, 3])
    pixels = omap.grid.world_to_pixel(np.stack((x, z), axis=1))
    pixels = pixels[omap.grid.in_bounds(pixels)]
    pixels = pixels[~omap.obstacles[pixels[:, 0], pixels[:, 1]]]
    if len(pixels):
        omap.obstacles[pixels[:, 0], pixels[:, 1]] = True
        omap._refresh_navigable(
            pixels[:, 0].min(), pixels[:, 0].max(), pixels[:, 1].min(), pixels[:, 1].max()
        )
        omap.version += 1


@pytest.mark.parametrize("size_px", [120, 400])
def test_obstacle_map_updates_equal_the_direct_computation(size_px: int) -> None:
    """Depth marking (per-pixel heights cached for the last rotations, cells by flat index) and the
    explored sweep (tables per heading, bounds from the rays' ends) against the direct computation, with cameras
    near and beyond the map's edge."""
    rng = np.random.default_rng(size_px)
    config = MapConfig(size_px=size_px, pixels_per_meter=20, max_depth=3.0)
    fast, direct = ObstacleMap(config), ObstacleMap(config)
    half_extent = size_px / 20 / 2 + 1.0
    headings = [_pose(rng, half_extent) for _ in range(HEIGHT_TABLES + 4)]  # more than the tables kept
    pose = _pose(rng, half_extent)
    for step in range(120):
        if step % 3:  # a forward move keeps the rotation (and the cached tables)
            pose = pose.copy()
            pose[[0, 2], 3] += rng.uniform(-0.3, 0.3, 2)
        elif step % 2:  # a heading faced before (its table kept, or dropped by then)
            pose = headings[int(rng.integers(len(headings)))].copy()
            pose[[0, 2], 3] = rng.uniform(-half_extent, half_extent, 2)
        else:
            pose = _pose(rng, half_extent)
        depth = rng.uniform(0.0, 4.0, (24, 32)).astype(np.float32)
        depth[rng.random(depth.shape) < 0.1] = 0.0
        intrinsics = np.array([[16.0, 0, 15.5], [0, 16.0, 11.5], [0, 0, 1]])
        fast.add_depth(depth, intrinsics, pose, 0.0)
        _add_depth_reference(direct, depth, intrinsics, pose)
        fast.reveal(pose, 79.0)
        _reveal_reference(direct, pose, 79.0)
        for layer in ("obstacles", "navigable", "_ray_blocking", "explored"):
            assert np.array_equal(getattr(fast, layer), getattr(direct, layer)), (step, layer)
        assert fast.explored_bounds == direct.explored_bounds, step
        assert fast.version == direct.version, step


def _frontiers_with_opencv_statistics(
    navigable: np.ndarray, explored: np.ndarray, min_frontier_px: int, min_unexplored_px: int
) -> np.ndarray:
    """Frontier midpoints as the detector documents them, from `connectedComponentsWithStats` (no shortcut):
    pockets by their area and bounding box, midpoints from OpenCV's centroids."""
    bounds = explored_bounds(explored)
    assert bounds is not None
    pad = 2 + int(2 * np.sqrt(min_unexplored_px))
    r0, r1 = max(0, bounds[0] - pad), min(navigable.shape[0], bounds[1] + pad)
    c0, c1 = max(0, bounds[2] - pad), min(navigable.shape[1], bounds[3] + pad)
    nav, seen_all = navigable[r0:r1, c0:c1], explored[r0:r1, c0:c1]
    unexplored = (nav & ~seen_all).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(unexplored, connectivity=4)
    h, w = unexplored.shape
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    keep = (left == 0) | (top == 0) | (right == w) | (bottom == h)
    keep |= stats[:, cv2.CC_STAT_AREA] >= min_unexplored_px
    keep[0] = False
    large = keep[labels] if count > 1 else np.zeros(unexplored.shape, bool)
    mask = seen_all & nav & cv2.dilate(large.astype(np.uint8), frontiers.CROSS).astype(bool)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros((0, 2))
    rows, cols = np.nonzero(labels)
    lab = labels[rows, cols]
    dist = (cols - centroids[lab, 0]) ** 2 + (rows - centroids[lab, 1]) ** 2
    order = np.lexsort((dist, lab))
    first = order[np.r_[0, np.flatnonzero(np.diff(lab[order])) + 1]]
    kept = stats[lab[first], cv2.CC_STAT_AREA] >= min_frontier_px
    return np.stack((rows[first][kept], cols[first][kept]), axis=1) + np.array([r0, c0], np.float64)


def test_frontier_detection_equals_the_one_from_opencv_statistics() -> None:
    """Random blobs of explored and blocked cells (pockets, edges, ties between equidistant cells): the same
    midpoints, in the same order, to the bit."""
    rng = np.random.default_rng(11)
    for trial in range(150):
        size = int(rng.integers(40, 160))
        navigable = np.ones((size, size), bool)
        explored = np.zeros((size, size), bool)
        for _ in range(int(rng.integers(1, 30))):
            r, c = rng.integers(0, size, 2)
            explored[r : r + rng.integers(3, 40), c : c + rng.integers(3, 40)] = True
        for _ in range(int(rng.integers(0, 40))):
            r, c = rng.integers(0, size, 2)
            navigable[r : r + rng.integers(1, 6), c : c + rng.integers(1, 6)] = False
        explored[rng.random((size, size)) < 0.02] = False  # pinholes: small pockets inside the explored area
        min_frontier, min_unexplored = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        expected = _frontiers_with_opencv_statistics(navigable, explored, min_frontier, min_unexplored)
        found = frontiers.detect_frontiers(navigable, explored, min_frontier, min_unexplored)
        assert found.shape == expected.shape and found.tobytes() == expected.tobytes(), trial
