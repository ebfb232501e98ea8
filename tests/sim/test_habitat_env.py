"""habitat-lab's own Env, ObjectNav task, sensors and measures running on TangoSim-v0."""

from __future__ import annotations

import numpy as np
import pytest

from tango.sim.config import EmbeddedSimConfig
from tango.sim.follower import OracleGeodesicFollower
from tango.sim.habitat_env import make_objectnav_env
from tango.sim.habitat_pathfinder import TangoShortestPath
from tango.sim.navgrid import NavGrid
from tango.sim.scene import load_scene
from tests.sim.builders import write_objectnav_dataset, write_room

STARTS = [
    (np.array([-3.0, 0.0, 2.5]), 0.0, "table"),  # around the partition into the east half
    (np.array([-1.0, 0.0, -2.0]), 1.5, "plant"),
    (np.array([3.0, 0.0, 0.0]), -2.0, "chair"),
    (np.array([-2.0, 0.0, -1.5]), 3.0, "chair"),
]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("objectnav")
    scenes_dir = root / "scenes"
    glb = write_room(scenes_dir / "room_000")
    grid = NavGrid.from_scene(load_scene(glb).mesh)
    split_file = write_objectnav_dataset(root / "objectnav", glb, scenes_dir, grid, STARTS)
    # The hand-built room's view points are sparse (tests/sim/builders.py), so a lenient radius: these tests
    # check the Env on our simulator, not the benchmark's rules (tests/tasks/test_measures_match_habitat_lab.py).
    environment = make_objectnav_env(split_file, scenes_dir, EmbeddedSimConfig(), success_distance=1.0)
    yield environment
    environment.close()


def test_observations_have_habitat_shapes(env) -> None:
    obs = env.reset()
    assert obs["rgb"].shape == (256, 256, 3) and obs["rgb"].dtype == np.uint8
    assert obs["depth"].shape == (256, 256, 1) and obs["depth"].dtype == np.float32
    assert 0.5 <= obs["depth"].min() and obs["depth"].max() <= 5.0
    assert obs["semantic"].shape == (256, 256, 1)
    assert {"objectgoal", "compass", "gps"} <= set(obs)
    assert np.allclose(obs["gps"], 0.0)
    obs = env.step("turn_left")
    assert obs["compass"][0] == pytest.approx(np.deg2rad(30.0), abs=1e-4)


def test_oracle_follower_succeeds_with_high_spl(env) -> None:
    for _ in range(len(STARTS)):
        env.reset()
        goals = [v.agent_state.position for g in env.current_episode.goals for v in g.view_points]
        follower = OracleGeodesicFollower(env.sim, goals, stop_distance=0.9)
        steps = 0
        while not env.episode_over:
            env.step(follower.next_action())
            steps += 1
            assert steps < 200, "follower did not finish"
        metrics = env.get_metrics()
        assert metrics["success"] == 1.0, env.current_episode.episode_id
        assert metrics["spl"] >= 0.95, (env.current_episode.episode_id, metrics)


def test_blocked_move_collides_and_stays(env) -> None:
    env.reset()
    env.sim.set_agent_state([-3.6, 0.0, 0.0], [0.0, np.sin(np.pi / 4), 0.0, np.cos(np.pi / 4)])  # facing -x
    before = env.sim.get_agent_state().position.copy()
    env.step("move_forward")
    assert env.sim.previous_step_collided
    assert np.allclose(env.sim.get_agent_state().position, before)
    env.step("turn_left")
    assert not env.sim.previous_step_collided


def test_look_up_and_down_tilt_the_camera(env) -> None:
    first = env.reset()
    up = env.step("look_up")
    assert env.sim.camera_pitch == pytest.approx(np.deg2rad(30.0))
    assert not np.array_equal(up["depth"], first["depth"])
    back = env.step("look_down")
    assert np.allclose(back["depth"], first["depth"])


def test_pathfinder_and_queries(env) -> None:
    env.reset()
    sim = env.sim
    start, goal = np.array([-1.5, 0.0, 2.5]), np.array([1.5, 0.0, 2.5])
    path = TangoShortestPath(requested_start=start, requested_end=goal)
    assert sim.pathfinder.find_path(path)
    assert np.allclose(path.points[0], start) and np.allclose(path.points[-1], goal)
    assert path.geodesic_distance == pytest.approx(sim.geodesic_distance(start, goal))
    assert sim.geodesic_distance(start, [goal, start]) < 0.05
    assert sim.is_navigable(start) and not sim.is_navigable([0.0, 0.0, 1.0])
    assert not sim.is_navigable([-1.5, 2.0, 2.5])  # above the floor
    snapped = sim.pathfinder.snap_point([0.0, 0.0, 1.0])
    assert sim.is_navigable(snapped)
    assert np.allclose(
        sim.pathfinder.try_step_no_sliding([-0.5, 0.0, 2.0], [0.5, 0.0, 2.0]), [-0.5, 0.0, 2.0]
    )
    slid = sim.pathfinder.try_step([-0.5, 0.0, 2.0], [0.5, 0.0, 1.5])
    assert slid[0] == pytest.approx(-0.5) and slid[2] == pytest.approx(1.5)  # slides along the partition
    assert 0.18 <= sim.distance_to_closest_obstacle([-2.0, 0.0, -1.0]) <= 2.0
    sim.seed(5)
    point = sim.sample_navigable_point()
    assert sim.is_navigable(point)


def test_observations_at_a_pose_leave_the_agent(env) -> None:
    env.reset()
    state = env.sim.get_agent_state()
    facing_wall = env.sim.get_observations_at(
        [-3.0, 0.0, 0.0], [0.0, np.sin(np.pi / 4), 0.0, np.cos(np.pi / 4)]
    )
    assert facing_wall["depth"][128, 128, 0] == pytest.approx(1.0, abs=0.01)  # west wall at x = -4
    assert np.allclose(env.sim.get_agent_state().position, state.position)
    env.sim.get_observations_at([-3.0, 0.0, 0.0], None, keep_agent_at_new_pose=True)
    assert np.allclose(env.sim.get_agent_state().position, [-3.0, 0.0, 0.0])
