"""VLFM's confidence cone and fusion rules, checked against hand-computed numbers."""

from __future__ import annotations

import numpy as np
import pytest

from tango.mapping.config import MapConfig
from tango.mapping.fov_patch import FovPatch, confidence_cone
from tango.mapping.value_map import ValueMap
from tests.mapping.synthetic import flat_wall_observation


def test_cone_confidence_on_axis_edge_and_off_axis() -> None:
    cone = confidence_cone(np.deg2rad(120.0), radius_px=20)
    centre = 20
    assert cone[centre + 10, centre] == pytest.approx(1.0)  # on the optical axis
    # 45 deg off-axis with a 60 deg half-FOV: cos^2(45 * 90 / 60 deg) = 0.14645 -> 0.25 + 0.75 * 0.14645
    assert cone[centre + 10, centre + 10] == pytest.approx(0.25 + 0.75 * 0.1464466, abs=1e-6)
    assert cone[centre - 5, centre] == 0.0  # behind the camera
    assert cone[centre + 5, centre + 15] == 0.0  # 71.6 deg off-axis: outside the FOV


def test_fusion_weighted_average_and_confidence() -> None:
    vmap = ValueMap(channels=2, config=MapConfig(size_px=10))
    vmap.fuse(FovPatch(4, 4, np.array([[0.5]], np.float32)), np.array([1.0, 0.2]))
    np.testing.assert_allclose(vmap.values[4, 4], [1.0, 0.2], rtol=1e-6)
    assert vmap.confidence[4, 4] == pytest.approx(0.5)
    vmap.fuse(FovPatch(4, 4, np.array([[0.8]], np.float32)), np.array([0.0, 0.6]))
    # v = (0.5 * v_old + 0.8 * v_new) / 1.3 ; c = (0.25 + 0.64) / 1.3
    np.testing.assert_allclose(vmap.values[4, 4], [0.5 / 1.3, (0.1 + 0.48) / 1.3], rtol=1e-6)
    assert vmap.confidence[4, 4] == pytest.approx(0.89 / 1.3, rel=1e-6)
    assert vmap.confidence[4, 5] == 0.0 and vmap.values[4, 5].tolist() == [0.0, 0.0]


def test_low_confidence_update_that_would_lower_confidence_is_dropped() -> None:
    vmap = ValueMap(channels=1, config=MapConfig(size_px=10))
    vmap.fuse(FovPatch(2, 2, np.array([[0.6]], np.float32)), np.array([0.9]))
    vmap.fuse(FovPatch(2, 2, np.array([[0.3]], np.float32)), np.array([0.1]))  # 0.3 < 0.35 and < 0.6
    assert vmap.values[2, 2, 0] == pytest.approx(0.9) and vmap.confidence[2, 2] == pytest.approx(0.6)
    vmap.fuse(FovPatch(5, 5, np.array([[0.3]], np.float32)), np.array([0.1]))  # first sight: kept
    assert vmap.values[5, 5, 0] == pytest.approx(0.1) and vmap.confidence[5, 5] == pytest.approx(0.3)


def test_wrong_number_of_scores_is_an_error() -> None:
    vmap = ValueMap(channels=2, config=MapConfig(size_px=10))
    with pytest.raises(ValueError, match="2 channels"):
        vmap.fuse(FovPatch(0, 0, np.ones((1, 1), np.float32)), np.array([1.0]))


def test_frame_patch_is_cut_at_the_wall_and_placed_ahead_of_the_camera() -> None:
    config = MapConfig(size_px=200, pixels_per_meter=20)
    vmap = ValueMap(channels=1, config=config)
    vmap.update(flat_wall_observation(2.0, size=128, hfov=90.0), np.array([0.7]))
    assert vmap.values[120, 100, 0] == pytest.approx(0.7)  # 1 m ahead on the axis
    assert vmap.confidence[120, 100] == pytest.approx(1.0, abs=1e-3)
    assert vmap.confidence[150, 100] == 0.0  # 2.5 m ahead: behind the wall at 2 m
    assert vmap.confidence[80, 100] == 0.0  # behind the camera
    turned = ValueMap(channels=1, config=config)
    turned.update(flat_wall_observation(2.0, size=128, hfov=90.0, yaw=np.pi / 2), np.array([0.7]))
    assert turned.confidence[100, 80] == pytest.approx(1.0, abs=1e-3)  # facing -x = -columns
    assert turned.confidence[100, 120] == 0.0


def test_values_near_a_point_take_the_median_of_seen_cells() -> None:
    vmap = ValueMap(channels=1, config=MapConfig(size_px=100, pixels_per_meter=20))
    vmap.fuse(FovPatch(40, 50, np.full((3, 1), 1.0, np.float32)), np.array([0.2]))
    vmap.fuse(FovPatch(43, 50, np.full((2, 1), 1.0, np.float32)), np.array([0.9]))
    # point (x=0, z=0.1) -> cell (48, 50); radius 0.5 m = 10 px covers rows 40..44
    near = vmap.values_near(np.array([[0.0, 0.0, 0.1]]))
    assert near[0, 0] == pytest.approx(0.2)
    assert vmap.values_near(np.array([[-1.5, 0.0, 0.0]]))[0, 0] == -1.0


def test_has_confidence_is_any_confidence_after_every_fusion() -> None:
    """The remembered answer equals reading the whole map, through dropped low-confidence updates, zero
    patches and non-finite scores."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        vmap = ValueMap(channels=1, config=MapConfig(size_px=30))
        assert not vmap.has_confidence()
        for _ in range(30):
            h, w = int(rng.integers(1, 8)), int(rng.integers(1, 8))
            conf = rng.uniform(0.0, 1.0, (h, w)).astype(np.float32)
            conf[rng.random((h, w)) < rng.uniform(0.0, 1.0)] = 0.0
            score = rng.choice([rng.uniform(0.0, 1.0), np.nan, np.inf])
            vmap.fuse(
                FovPatch(int(rng.integers(0, 30 - h)), int(rng.integers(0, 30 - w)), conf), np.array([score])
            )
            assert vmap.has_confidence() == bool(vmap.confidence.any())


def test_has_confidence_reads_the_map_as_numpy_any() -> None:
    """Before any fusion the answer is read from the map: equal to numpy's any() for each special float value
    (NaN and denormals count, -0.0 does not) anywhere in the map, the last cell included."""
    rng = np.random.default_rng(5)
    for value in (0.0, -0.0, np.nan, np.inf, -np.inf, 1e-45, -1e-45, 0.5):
        for _ in range(5):
            vmap = ValueMap(channels=1, config=MapConfig(size_px=int(rng.integers(1, 40))))
            size = vmap.confidence.shape[0]
            vmap.confidence[int(rng.integers(0, size)), int(rng.integers(0, size))] = value
            assert vmap.has_confidence() == bool(vmap.confidence.any())
        vmap = ValueMap(channels=1, config=MapConfig(size_px=17))
        vmap.confidence[-1, -1] = value
        assert vmap.has_confidence() == bool(vmap.confidence.any())
