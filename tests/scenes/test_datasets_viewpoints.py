"""View-point geometry conventions: yaw 0 looks along -z, positive yaw turns left, quaternions round-trip."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tango.scenes.datasets.viewpoints import (
    camera_pose,
    centre_iou,
    quaternion_yaw,
    yaw_quaternion,
    yaw_towards,
)


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
