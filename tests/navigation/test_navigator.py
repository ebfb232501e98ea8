"""Navigator modes on synthetic frames: scan, frontier exploration, point goals, detections, memory recall."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tango.mapping.config import MapConfig
from tango.navigation.actions import MOVE_FORWARD, POINTNAV_ACTIONS, STOP, TURN_LEFT, TURN_RIGHT
from tango.navigation.config import ExploreConfig, NavigationConfig, NavigatorConfig
from tango.navigation.explorer import FrontierSelector
from tango.navigation.navigator import Navigator
from tango.navigation.pointnav_net import PointNavPolicy
from tango.navigation.targets import detection_point
from tango.perception.memories import FrameFeatureMemory
from tango.types.observation import Observation
from tests.mapping.synthetic import flat_wall_observation


def small_agent(**explore: float) -> NavigatorConfig:
    return NavigatorConfig(map=MapConfig(size_px=300), explore=ExploreConfig(**explore))  # type: ignore[arg-type]


def test_explore_scans_a_full_turn_first_then_heads_for_a_frontier() -> None:
    navigator = Navigator(small_agent())
    navigator.update(flat_wall_observation(0.0, size=128))
    actions = [navigator.next_action_explore() for _ in range(12)]
    assert actions == [TURN_LEFT] * 12
    assert navigator.next_action_explore() in (MOVE_FORWARD, TURN_LEFT, TURN_RIGHT)
    assert navigator.frontiers.target is not None


def _everything_explored(navigator: Navigator) -> None:
    navigator.obstacle_map.explored[:] = True  # everything seen: no frontier anywhere
    navigator.obstacle_map.explored_bounds = (0, 300, 0, 300)
    navigator.obstacle_map.version += 1


def test_explore_returns_none_when_no_frontier_is_left() -> None:
    navigator = Navigator(small_agent(scan_turns=0, closer_look_m=0.0))
    navigator.update(flat_wall_observation(0.0, size=128))
    _everything_explored(navigator)
    assert navigator.next_action_explore() is None


def test_with_no_frontier_left_the_closer_look_explores_once_per_search() -> None:
    """The frame saw open floor to 5 m; once nothing is left, what lay beyond 2.5 m is explored again, once;
    a new search (restart_exploration) may take the closer look again."""
    navigator = Navigator(small_agent(scan_turns=0, closer_look_m=2.5))
    navigator.update(flat_wall_observation(0.0, size=128))
    _everything_explored(navigator)
    assert navigator.next_action_explore() is not None and navigator.closer_look_now
    assert not navigator.obstacle_map.explored[150 + 60, 150]  # 3 m ahead: unexplored again
    _everything_explored(navigator)
    assert navigator.next_action_explore() is None and not navigator.closer_look_now
    navigator.restart_exploration()
    navigator.scan_remaining = 0
    assert navigator.next_action_explore() is not None


def test_a_negative_closer_look_range_is_a_config_error() -> None:
    with pytest.raises(ValueError, match="closer_look_m"):
        ExploreConfig(closer_look_m=-1.0)


def test_frontier_hysteresis_keeps_current_target_unless_clearly_better() -> None:
    selector = FrontierSelector(ExploreConfig(frontier_switch_distance=1.0))
    here = np.zeros(3)
    a, b = np.array([3.0, 0.0, 0.0]), np.array([0.0, 0.0, -3.5])
    assert np.allclose(selector.choose(np.stack([a, b]), here, None), a)
    # another frontier 0.5 m nearer than a: within the 1 m margin, keep a
    assert np.allclose(selector.choose(np.stack([a, np.array([0.0, 0.0, -2.5])]), here, None), a)
    # another frontier 2 m nearer: switch
    near = np.array([0.0, 0.0, -1.0])
    assert np.allclose(selector.choose(np.stack([a, near]), here, None), near)
    # given up: frontiers within 0.5 m of it are skipped while others remain ...
    selector.give_up()
    far = np.array([5.0, 0.0, 0.0])
    assert np.allclose(selector.choose(np.stack([near + [0, 0, -0.1], far]), here, None), far)
    # ... and get one second chance when nothing else is left
    assert np.allclose(selector.choose(np.array([near]), here, None), near)


def test_next_action_to_stops_within_the_success_distance_and_moves_otherwise() -> None:
    navigator = Navigator(NavigatorConfig(map=MapConfig(size_px=300)))
    navigator.update(flat_wall_observation(0.0, size=128))
    assert navigator.next_action_to(np.array([0.0, 0.0, -0.8]), stop_distance=1.0) == STOP
    assert navigator.next_action_to(np.array([0.0, 0.0, -3.0]), stop_distance=1.0) == MOVE_FORWARD
    assert navigator.next_action_to(np.array([3.0, 0.0, 0.0]), stop_distance=1.0) == TURN_RIGHT


def test_detection_point_uses_the_median_depth_over_the_box_core() -> None:
    obs = flat_wall_observation(4.0, size=101, hfov=90.0)
    obs.depth[40:61, 40:61] = 2.0  # an object in front of the wall
    obs.depth[50, 50] = 0.6  # one bad pixel must not matter
    point = detection_point(obs, box=np.array([40.0, 40.0, 60.0, 60.0]))
    assert point is not None
    np.testing.assert_allclose(point, [0.0, 0.88, -2.0], atol=1e-6)
    mask = np.zeros((101, 101), bool)
    mask[45:56, 70:81] = True  # centred on column 75: 25 px right of centre at f = 50.5 px
    obs.depth[45:56, 70:81] = 3.0
    point = detection_point(obs, mask=mask)
    assert point is not None
    np.testing.assert_allclose(point, [25 * 3.0 / 50.5, 0.88, -3.0], atol=1e-6)
    obs.depth[:] = 0.0
    assert detection_point(obs, box=np.array([40.0, 40.0, 60.0, 60.0])) is None


class FixedEmbedder:
    """Stands in for the value scorer's embeddings: the given frame embeddings in order, and one text embedding."""

    def __init__(self, frames: list[list[float]], text: list[float]) -> None:
        self.frames = [np.array(f, np.float32) for f in frames]
        self.text = np.array(text, np.float32)

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        raise AssertionError("the memory reads embeddings, not scores")

    def image_embedding(self, obs: Observation) -> np.ndarray:
        return self.frames.pop(0)

    def text_embedding(self, text: str) -> np.ndarray:
        return self.text


def test_frame_feature_memory_places_a_target_through_the_navigators_map_view() -> None:
    navigator = Navigator(small_agent())
    memory = FrameFeatureMemory(FixedEmbedder([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [0.1, 1.0, 0.0]), 0.5)
    for yaw in (0.0, np.pi):
        obs = flat_wall_observation(3.0, size=64, yaw=yaw)
        navigator.update(obs)
        assert navigator.fov_patch(obs) is navigator.fov_patch(obs)  # projected once per frame
        memory.observe(obs, navigator)
    hit = memory.place("Chair")
    assert (
        hit is not None and hit.key == "chair@memory" and hit.point[2] > 0
    )  # the area of the frame facing +z
    miss = FrameFeatureMemory(FixedEmbedder([[1.0, 0.0, 0.0]], [0.0, 0.0, 1.0]), 0.5)
    miss.observe(flat_wall_observation(3.0, size=64), navigator)
    assert miss.place("chair") is None


def test_value_scores_fill_the_value_map_channels() -> None:
    navigator = Navigator(small_agent(), num_prompts=2)
    navigator.update(flat_wall_observation(3.0, size=64), value_scores=np.array([0.2, 0.9]))
    ahead = navigator.value_map.values_near(np.array([[0.0, 0.0, -1.5]]), 0.3)
    np.testing.assert_allclose(ahead, [[0.2, 0.9]], rtol=1e-5)


def test_unknown_controller_is_a_config_error() -> None:
    with pytest.raises(ValueError, match="fmm"):
        Navigator(NavigatorConfig(navigation=NavigationConfig(controller="teleport")))


def test_pointnav_controller_drives_next_action_to_with_a_tiny_random_init_policy() -> None:
    torch.manual_seed(0)
    config = NavigatorConfig(map=MapConfig(size_px=300), navigation=NavigationConfig(controller="pointnav"))
    navigator = Navigator(config, pointnav_policy=PointNavPolicy())
    navigator.update(flat_wall_observation(3.0, size=64))
    assert navigator.next_action_to(np.array([0.0, 0.0, -2.0]), stop_distance=0.2) in POINTNAV_ACTIONS
    assert navigator.next_action_to(np.array([0.0, 0.0, -0.1]), stop_distance=0.2) == STOP
