"""Shortcuts the FMM controller takes every step give the direct computation's results, on random inputs."""

from __future__ import annotations

import cv2
import numpy as np

from tango.navigation.fmm_planner import disk, line_is_free
from tango.navigation.targets import detection_point, detection_region
from tango.types.observation import Observation


def _line_is_free_with_linspace(traversable: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    n = int(np.ceil(np.abs(b - a).max() * 2)) + 1
    rows = np.rint(np.linspace(a[0], b[0], n)).astype(int)
    cols = np.rint(np.linspace(a[1], b[1], n)).astype(int)
    return bool(traversable[rows, cols].all())


def test_line_of_sight_equals_the_linspace_cells() -> None:
    rng = np.random.default_rng(11)
    traversable = rng.random((60, 60)) < 0.97
    outcomes = set()
    for _ in range(3000):
        a: np.ndarray = rng.integers(0, 60, 2)  # integer cells, as the controller passes them
        b: np.ndarray = rng.integers(0, 60, 2) if rng.random() < 0.8 else a.copy()
        if rng.random() < 0.3:  # fractional ends too
            a, b = a * 0.999, b * 0.999
        found = line_is_free(traversable, a, b)
        assert found == _line_is_free_with_linspace(traversable, a, b), (a, b)
        outcomes.add(found)
    assert outcomes == {True, False}


def test_disk_masks_are_the_drawn_circle_and_cannot_be_modified() -> None:
    rng = np.random.default_rng(2)
    for _ in range(200):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 40)))
        centre, radius = rng.integers(-5, 45, 2), int(rng.integers(0, 12))
        drawn = np.zeros(shape, np.uint8)
        cv2.circle(drawn, (int(centre[1]), int(centre[0])), radius, (1,), -1)
        for _ in range(2):  # drawn, then remembered
            mask = disk(shape, centre, radius)
            assert np.array_equal(mask, drawn.astype(bool))
            assert not mask.flags.writeable


def test_a_box_point_read_from_its_window_equals_the_point_of_its_region_mask() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        h, w = int(rng.integers(4, 60)), int(rng.integers(4, 60))
        depth = rng.uniform(0.0, 12.0, (h, w)).astype(np.float32)
        depth[rng.random((h, w)) < 0.2] = 0.0
        if rng.random() < 0.1:
            depth[:] = 0.0  # no reading anywhere: no point
        angle = rng.uniform(-np.pi, np.pi)
        pose = np.eye(4)
        pose[:3, :3] = [[np.cos(angle), 0, np.sin(angle)], [0, 1, 0], [-np.sin(angle), 0, np.cos(angle)]]
        pose[:3, 3] = rng.uniform(-5, 5, 3)
        obs = Observation(
            rgb=np.zeros((h, w, 3), np.uint8), depth=depth, camera_pose=pose,
            hfov_deg=float(rng.uniform(60, 110)), agent_position=pose[:3, 3].copy(), agent_yaw=angle,
        )  # fmt: skip
        x0, y0 = rng.uniform(-5, w), rng.uniform(-5, h)
        box = np.array([x0, y0, x0 + rng.uniform(0, w), y0 + rng.uniform(0, h)])
        max_depth = float(rng.uniform(1.0, 10.0))
        from_box = detection_point(obs, box, None, max_depth)
        from_mask = detection_point(obs, None, detection_region(depth.shape, box, None), max_depth)
        if from_mask is None:
            assert from_box is None
        else:
            assert from_box is not None and np.array_equal(from_box, from_mask)
