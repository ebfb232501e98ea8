"""Detections record, back-projection from depth, and the helpers primitives use."""

from __future__ import annotations

import numpy as np

from tango.perception.detections import Detections, concat, count_instances, is_found
from tango.perception.geometry import pixel_to_world
from tests.perception.conftest import make_observation


def test_centre_pixel_projects_straight_ahead_along_minus_z() -> None:
    obs = make_observation(np.zeros((48, 64)))
    point = pixel_to_world(obs, (64 - 1) / 2, (48 - 1) / 2, 2.0)
    np.testing.assert_allclose(point, [0.0, 0.0, -2.0], atol=1e-9)


def test_right_image_edge_at_90_degree_hfov_in_a_camera_turned_left() -> None:
    obs = make_observation(np.zeros((48, 64)))
    yaw = np.pi / 2  # camera turned left: its -z axis points to world -x
    pose = np.eye(4)
    pose[:3, :3] = [[np.cos(yaw), 0, np.sin(yaw)], [0, 1, 0], [-np.sin(yaw), 0, np.cos(yaw)]]
    pose[:3, 3] = [1.0, 1.5, 0.0]
    obs.camera_pose = pose
    point = pixel_to_world(obs, 64 - 1 + 0.5, (48 - 1) / 2, 2.0)  # right image edge: camera point (2, 0, -2)
    # camera -z is world -x and camera +x is world -z, then the camera position is added
    np.testing.assert_allclose(point, [1.0 - 2.0, 1.5, -2.0], atol=1e-9)


def test_box_points_use_median_depth_and_ignore_invalid_pixels() -> None:
    obs = make_observation(np.zeros((48, 64)), depth_m=3.0)
    obs.depth[20:28, 28:36] = 0.0  # invalid hole in the box centre
    obs.depth[18:30, 26:30] = 50.0  # a thin far outlier strip
    detections = Detections.from_boxes(obs, np.array([[16, 8, 48, 40]]), np.array([0.9]), ["chair"])
    assert detections.points[0, 2] == np.float64(-3.0)
    assert detections.instance_ids.tolist() == [-1]


def test_box_with_no_valid_depth_has_nan_point_and_is_dropped_by_with_points() -> None:
    obs = make_observation(np.zeros((48, 64)), depth_m=0.0)
    detections = Detections.from_boxes(obs, np.array([[0, 0, 10, 10]]), np.array([0.5]), ["lamp"])
    assert np.isnan(detections.points).all()
    assert len(detections.with_points()) == 0
    assert detections.nearest_to(np.zeros(3)) == -1


def test_depth_at_the_sensors_far_clip_places_nothing() -> None:
    """habitat clips farther surfaces to max_depth: an object beyond it would be placed at 5 m, short of where it
    is; it gets no point until seen closer, and the clipped pixels of a nearer object are left out."""
    far = make_observation(np.zeros((48, 64)), depth_m=5.0)
    far.depth_clip = 5.0
    box = np.array([[16, 8, 48, 40]])
    assert np.isnan(Detections.from_boxes(far, box, np.array([0.9]), ["sofa"]).points).all()
    far.depth[8:40, 16:32] = 3.0  # the box's left half is nearer than the clip; its right half reads the clip
    assert Detections.from_boxes(far, box, np.array([0.9]), ["sofa"]).points[0, 2] == np.float64(-3.0)
    far.depth_clip = None  # a sensor that does not clip: 5 m is a reading like any other
    assert Detections.from_boxes(far, box, np.array([0.9]), ["sofa"]).points[0, 2] == np.float64(-4.0)


def record(labels: list[str], scores: list[float], points: list[list[float]], ids: list[int]) -> Detections:
    boxes = np.tile([0.0, 0.0, 10.0, 10.0], (len(labels), 1))
    return Detections(boxes, np.array(scores), labels, np.array(points, dtype=float), np.array(ids))


def test_label_score_and_sorting_helpers() -> None:
    dets = record(
        ["Chair", "table", "chair"], [0.2, 0.9, 0.7], [[0, 0, -1], [0, 0, -2], [1, 0, -1]], [-1, -1, -1]
    )
    assert dets.with_label("chair").scores.tolist() == np.float32([0.2, 0.7]).tolist()
    assert is_found(dets, "chair", 0.5) and not is_found(dets, "chair", 0.8) and not is_found(dets, "bed")
    assert dets.sorted_by_score().labels == ["table", "chair", "Chair"]
    assert dets.nearest_to(np.array([1.0, 5.0, -1.1])) == 2
    assert len(concat([dets, Detections.empty(), dets.select([0])])) == 4


def test_count_instances_merges_nearby_points_and_uses_instance_ids() -> None:
    unknown = record(["cup"] * 3, [1, 1, 1], [[0, 0, 0], [0.2, 0, 0.1], [3, 0, 0]], [-1, -1, -1])
    assert count_instances(unknown, merge_radius_m=0.5) == 2
    known = record(["cup"] * 3, [1, 1, 1], [[0, 0, 0], [0, 0, 0], [0, 0, 0]], [7, 8, 7])
    assert count_instances(known) == 2


def test_mismatched_masks_are_rejected() -> None:
    try:
        Detections(
            np.zeros((1, 4)), np.ones(1), ["a"], np.zeros((1, 3)), np.zeros(1), np.zeros((2, 4, 4), bool)
        )
    except ValueError as error:
        assert "2 masks for 1 labels" in str(error)
    else:
        raise AssertionError("expected ValueError")
