"""Back-projection and map-pixel transforms against hand-computed values."""

from __future__ import annotations

import numpy as np

from tango.mapping.geometry import (
    MapGrid,
    camera_yaw,
    depth_to_camera_points,
    depth_to_world_points,
    effective_depth,
)
from tests.mapping.synthetic import yaw_pose


def intrinsics_5px_90deg() -> np.ndarray:
    # width 5, hfov 90 deg: fx = 2.5 / tan(45 deg) = 2.5, principal point (2, 2)
    return np.array([[2.5, 0.0, 2.0], [0.0, 2.5, 2.0], [0.0, 0.0, 1.0]])


def test_back_projection_of_single_pixels_in_camera_frame() -> None:
    depth = np.zeros((5, 5), np.float32)
    depth[2, 4] = 2.0
    depth[0, 2] = 5.0
    points = depth_to_camera_points(depth, intrinsics_5px_90deg(), depth > 0)
    # row-major order: (0, 2) first: straight up by (2 px / 2.5) * 5 m = 4 m
    np.testing.assert_allclose(points, [[0.0, 4.0, -5.0], [1.6, 0.0, -2.0]], atol=1e-9)


def test_world_points_after_a_left_turn_and_translation() -> None:
    depth = np.zeros((5, 5), np.float32)
    depth[2, 4] = 2.0
    pose = yaw_pose(1.0, 0.5, 0.0, np.pi / 2)  # facing -x
    points = depth_to_world_points(depth, intrinsics_5px_90deg(), pose, max_depth=5.0)
    # camera (1.6, 0, -2) -> forward 2 m along -x, 1.6 m to the right (-z)
    np.testing.assert_allclose(points, [[-1.0, 0.5, -1.6]], atol=1e-9)


def test_points_at_or_beyond_max_depth_are_dropped() -> None:
    depth = np.full((5, 5), 5.0, np.float32)
    depth[1, 1] = 4.0
    points = depth_to_world_points(depth, intrinsics_5px_90deg(), np.eye(4), max_depth=5.0)
    assert points.shape == (1, 3)


def test_effective_depth_reads_zero_as_max_and_clips() -> None:
    out = effective_depth(np.array([0.0, 0.2, 3.0, 9.0], np.float32), 0.5, 5.0)
    np.testing.assert_allclose(out, [5.0, 0.5, 3.0, 5.0])


def test_camera_yaw_follows_habitat_turn_left() -> None:
    assert abs(camera_yaw(yaw_pose(0, 0, 0, 0.0))) < 1e-12
    assert abs(camera_yaw(yaw_pose(0, 0, 0, 0.5)) - 0.5) < 1e-12
    assert abs(camera_yaw(yaw_pose(0, 0, 0, -2.0)) + 2.0) < 1e-12


def test_world_to_pixel_layout_and_round_trip() -> None:
    grid = MapGrid(1000, 20)
    pixels = grid.world_to_pixel(np.array([[1.0, 0.3, -2.0], [0.0, 0.0, 0.0], [-0.26, 0.0, 0.5]]))
    # rows grow toward -z, columns toward +x, origin at (500, 500)
    np.testing.assert_array_equal(pixels, [[540, 520], [500, 500], [490, 495]])
    back = grid.pixel_to_world(pixels, y=0.3)
    np.testing.assert_allclose(back[0], [1.0, 0.3, -2.0])
    np.testing.assert_allclose(back[2], [-0.25, 0.3, 0.5])
    assert grid.in_bounds(np.array([[0, 999], [1000, 5], [-1, 3]])).tolist() == [True, False, False]
