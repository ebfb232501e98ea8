"""View points: geometry conventions, the 0.1 m lattice within 1 m, and the local id renderer's exact masks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tango.scenes.datasets.viewpoints import (
    ViewPointConfig,
    camera_pose,
    candidate_positions,
    centre_iou,
    find_view_points,
    footprint_distance,
    quaternion_yaw,
    yaw_quaternion,
    yaw_towards,
)
from tango.scenes.datasets.visibility import VisibilityRenderer
from tango.sim.navgrid import NavGrid
from tango.sim.render import Renderer
from tango.types.scene import SceneObject
from tests.sim.builders import OBJECTS, room_scene


def _scene_object(object_id: int) -> SceneObject:
    category, base, extents, _ = OBJECTS[object_id]
    lo = (base[0] - extents[0] / 2, base[1], base[2] - extents[2] / 2)
    hi = (base[0] + extents[0] / 2, base[1] + extents[1], base[2] + extents[2] / 2)
    return SceneObject(object_id, category, lo, hi)


@pytest.mark.parametrize("target", [(0.0, 0.0, -2.0), (-3.0, 0.0, 0.0), (1.0, 0.0, 1.0), (2.5, 0.0, -0.3)])
def test_camera_facing_a_target_sees_it_straight_ahead(target: tuple[float, float, float]) -> None:
    position = np.array([0.0, 0.0, 0.0])
    goal = np.array(target)
    pose = camera_pose(position, yaw_towards(position, goal), 0.88)
    in_camera = np.linalg.inv(pose) @ np.array([goal[0], 0.88, goal[2], 1.0])
    assert in_camera[0] == pytest.approx(0.0, abs=1e-9)
    assert in_camera[2] == pytest.approx(-np.hypot(goal[0], goal[2]))


def test_yaw_conventions_match_habitat() -> None:
    assert yaw_towards(np.zeros(3), np.array([0.0, 0.0, -1.0])) == pytest.approx(0.0)
    assert yaw_towards(np.zeros(3), np.array([-1.0, 0.0, 0.0])) == pytest.approx(math.pi / 2)
    for yaw in (-2.5, -0.3, 0.0, 1.0, 3.0):
        q = yaw_quaternion(yaw)
        assert math.sqrt(sum(v * v for v in q)) == pytest.approx(1.0)
        assert quaternion_yaw(q) == pytest.approx(yaw)


def test_centre_iou_is_one_for_the_centre_rectangle_and_zero_for_corners() -> None:
    mask = np.zeros((64, 64), dtype=bool)
    mask[16:48, 16:48] = True
    assert centre_iou(mask) == pytest.approx(1.0)
    corner = np.zeros((64, 64), dtype=bool)
    corner[:8, :8] = True
    assert centre_iou(corner) == 0.0
    half = np.zeros((64, 64), dtype=bool)
    half[16:48, 16:32] = True
    assert centre_iou(half) == pytest.approx(0.5)


def test_candidates_are_a_tenth_of_a_metre_lattice_within_one_metre() -> None:
    grid = NavGrid(np.ones((120, 120), dtype=bool), (-3.0, -3.0), 0.05, 0.0)
    obj = SceneObject(1, "chair", (-0.25, 0.0, -0.25), (0.25, 0.9, 0.25))
    positions = candidate_positions(grid, obj, ViewPointConfig())
    gaps = footprint_distance(obj, positions[:, 0], positions[:, 2])
    assert gaps.max() <= 1.0 + 1e-9
    xs, zs = np.unique(positions[:, 0].round(6)), np.unique(positions[:, 2].round(6))
    assert np.allclose(np.diff(xs), 0.1) and np.allclose(np.diff(zs), 0.1)
    # The footprint grown by 1 m (a 2.5 m rounded square, ~5.9 m^2) holds about 590 points of a 0.1 m lattice.
    assert 540 <= len(positions) <= 640
    assert np.all(positions[:, 1] == 0.0)


def test_local_id_frames_equal_the_full_render_and_occlusion_hides_the_object() -> None:
    scene = room_scene()
    table = _scene_object(2)
    config = ViewPointConfig()
    eyes = [np.array([x, 0.0, z]) for x, z in ((2.5, 0.5), (1.2, 1.5), (3.6, 2.5), (-1.5, 1.5), (0.6, -2.5))]
    poses = [camera_pose(p, yaw_towards(p, table.center), config.camera_height_m) for p in eyes]
    local = VisibilityRenderer(scene, config.width, config.height, config.hfov_deg, floor_y=0.0)
    full = Renderer(scene, config.width, config.height, config.hfov_deg, sensors=("semantic",), ctx=local.ctx)
    try:
        masks = list(local.masks(table, poses))
        for pose, mask in zip(poses, masks, strict=True):
            frame = full.render(pose)
            assert frame.semantic is not None
            assert np.array_equal(mask, frame.semantic == table.id)
    finally:
        full.release()
        local.release()
    assert all(m.sum() > 100 for m in masks[:3])
    assert masks[3].sum() == 0  # behind the partition


def test_view_points_around_a_box_see_it_and_are_sorted_by_iou() -> None:
    scene = room_scene()
    grid = NavGrid.from_scene(scene, floor_y=0.0)
    table = _scene_object(2)
    config = ViewPointConfig()
    renderer = VisibilityRenderer(scene, config.width, config.height, config.hfov_deg, floor_y=0.0)
    try:
        views = find_view_points(grid, renderer, table, config)
    finally:
        renderer.release()
    candidates = candidate_positions(grid, table, config)
    assert 50 <= len(views) <= len(candidates)
    assert all(v.pixels >= config.min_pixels and 0.0 <= v.iou <= 1.0 for v in views)
    assert [v.iou for v in views] == sorted((v.iou for v in views), reverse=True)
    assert all(grid.is_navigable(np.asarray(v.position)) for v in views)
