"""Obstacle, navigable and explored layers on a flat wall with a hand-computed footprint."""

from __future__ import annotations

import numpy as np
import pytest

from tango.mapping.config import MapConfig
from tango.mapping.obstacle_map import ObstacleMap
from tests.mapping.synthetic import flat_wall_observation


def small_config() -> MapConfig:
    return MapConfig(size_px=200, pixels_per_meter=20, max_depth=5.0)


def test_wall_three_metres_ahead_becomes_an_obstacle_row() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(3.0, size=256, hfov=90.0))
    rows, cols = np.nonzero(omap.obstacles)
    # wall at z = -3 m -> row 100 + 60; visible half-width 3 m * tan(45 deg) -> cols 40..160
    assert set(rows.tolist()) == {160}
    assert 40 <= cols.min() <= 42 and 158 <= cols.max() <= 160
    # floor and ceiling points are outside the 0.15-0.88 m band: nothing else marked
    assert omap.obstacles.sum() == len(set(cols.tolist()))


def test_navigable_is_obstacles_dilated_by_agent_radius() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(3.0, size=256, hfov=90.0))
    # kernel int(20 * 0.18 * 2) = 7 -> odd 7, i.e. 3 px each side
    assert omap.inflation_px == 3
    assert not omap.navigable[157, 100] and not omap.navigable[163, 100]
    assert omap.navigable[156, 100] and omap.navigable[164, 100]
    assert omap.navigable[100, 100]


def test_explored_cone_stops_at_the_wall_and_respects_the_fov() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(3.0, size=256, hfov=90.0))
    assert omap.explored[130, 100]  # straight ahead, 1.5 m
    assert omap.explored[140, 120]  # 27 deg off-axis
    assert not omap.explored[130, 135]  # 49 deg off-axis: outside the 45 deg half-FOV
    assert omap.explored[158, 100] and not omap.explored[159, 100]  # stops one pixel short of the wall
    assert not omap.explored[165, 100]  # behind the wall
    assert not omap.explored[90, 100]  # behind the camera


def test_explored_reaches_max_depth_in_open_space() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(0.0, size=64, hfov=90.0))  # depth 0: nothing within range
    assert omap.obstacles.sum() == 0
    assert omap.explored[199, 100] or omap.explored[198, 100]  # 5 m ahead = row 200 (edge of a 200 px map)
    assert omap.explored[195, 100]


def test_explore_closer_keeps_only_what_frames_saw_within_the_range() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(4.5, size=256, hfov=90.0))  # floor seen up to a wall 4.5 m ahead
    omap.update(flat_wall_observation(4.5, size=256, hfov=90.0, yaw=np.pi / 2))  # and toward -x
    obstacles, version = omap.obstacles.copy(), omap.version
    assert omap.explored[160, 100] and omap.explored[100, 40]  # 3 m ahead, 3 m to the left
    omap.explore_closer(2.5)
    assert omap.explored[140, 100] and omap.explored[100, 60]  # 2 m: still explored
    assert not omap.explored[160, 100] and not omap.explored[100, 40]  # 3 m: unexplored again
    assert (omap.obstacles == obstacles).all() and omap.version > version
    rows, cols = omap.frontier_pixels().T
    assert len(rows) and np.hypot(rows - 100, cols - 100).max() <= 2.5 * 20 + 2  # frontiers at the new edge


def test_explore_closer_with_vlfms_rule_reveals_only_cones_that_hold_an_obstacle() -> None:
    """VLFM's fog of war reveals nothing through a cone without an obstacle in it (fog_of_war.reveal_cone), so
    at 2.5 m the view of a wall 2 m ahead stays explored and the view toward a wall 4.5 m away is forgotten."""
    omap = ObstacleMap(vlfm_config())
    omap.update(flat_wall_observation(2.0, size=256, hfov=90.0))
    omap.update(flat_wall_observation(4.5, size=256, hfov=90.0, yaw=np.pi / 2))
    assert omap.explored[130, 100] and omap.explored[100, 40]
    omap.explore_closer(2.5)
    assert omap.explored[130, 100] and not omap.explored[100, 40] and not omap.explored[100, 70]


def test_turning_left_explores_toward_minus_x() -> None:
    omap = ObstacleMap(small_config())
    omap.update(flat_wall_observation(2.0, size=256, hfov=90.0, yaw=np.pi / 2))
    _, cols = np.nonzero(omap.obstacles)
    assert set(cols.tolist()) == {60}  # wall at x = -2 m
    assert omap.explored[100, 80] and not omap.explored[100, 120]


def test_collision_marking_updates_navigability_and_version() -> None:
    omap = ObstacleMap(small_config())
    before = omap.version
    omap.mark_obstacles(np.array([[0.5, 0.5, 0.0]]))
    assert omap.obstacles[100, 110] and not omap.navigable[100, 112] and omap.navigable[100, 114]
    assert omap.version > before
    assert not omap.is_navigable(np.array([0.5, 0.0, 0.0]))


def test_collision_marks_can_be_withdrawn_and_seen_obstacles_stay() -> None:
    omap = ObstacleMap(small_config())
    omap.mark_obstacles(np.array([[-1.0, 0.5, 0.0]]))  # seen: cell (100, 80)
    omap.mark_collision(np.array([[0.5, 0.5, 0.0]]))  # bumped into: cell (100, 110)
    assert omap.obstacles[100, 110] and not omap.navigable[100, 110]
    version = omap.version
    assert omap.clear_collisions()
    assert not omap.obstacles[100, 110] and omap.navigable[100, 110]
    assert omap.obstacles[100, 80] and not omap.navigable[100, 80]
    assert omap.version > version
    assert not omap.clear_collisions()


def vlfm_config() -> MapConfig:
    return MapConfig(size_px=200, pixels_per_meter=20, max_depth=5.0, explored_method="vlfm")


def test_unknown_explored_method_is_rejected_with_the_field_name() -> None:
    with pytest.raises(ValueError, match="map.explored_method"):
        MapConfig(explored_method="sweep")


def test_vlfm_method_uses_a_square_footprint_and_raycast_a_round_one() -> None:
    square, round_ = ObstacleMap(vlfm_config()), ObstacleMap(small_config())
    for omap in (square, round_):
        omap.mark_obstacles(np.array([[0.5, 0.5, 0.0]]))  # cell (100, 110)
    assert not square.navigable[97, 107] and not square.navigable[103, 113]  # 7x7 square corners
    assert round_.navigable[97, 107] and round_.navigable[103, 113]
    assert not round_.navigable[97, 110] and round_.navigable[96, 110]


def test_vlfm_explored_area_stops_at_the_wall_footprint() -> None:
    omap = ObstacleMap(vlfm_config())
    omap.update(flat_wall_observation(3.0, size=256, hfov=90.0))
    # wall row 160, square footprint rows 157-163 are not navigable, so not explored
    assert omap.explored[130, 100] and omap.explored[156, 100]
    assert not omap.explored[157, 100] and not omap.explored[165, 100]
    assert not omap.explored[130, 135]  # 49 deg off-axis
    assert not (omap.explored & ~omap.navigable).any()
    frontiers = omap.frontier_pixels()
    assert len(frontiers) >= 1 and omap.navigable[tuple(np.rint(frontiers).astype(int).T)].all()


def test_vlfm_explored_area_keeps_only_the_region_around_the_camera() -> None:
    omap = ObstacleMap(vlfm_config())
    omap.update(flat_wall_observation(1.0, size=128, hfov=90.0))
    assert omap.explored[110, 100]
    omap.update(flat_wall_observation(1.0, size=128, hfov=90.0, x=-4.0))  # 80 px toward -cols, cones apart
    assert omap.explored[110, 20] and not omap.explored[110, 100]
    assert omap.explored_bounds is not None and omap.explored_bounds[3] <= 60
