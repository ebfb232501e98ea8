"""SimSession over TangoSim-v0 on a synthetic apartment: observations, camera pose, distance walked, pitch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.agent.sim_session import TILT_LIMIT_DEG, SimSession
from tango.formats import objectnav
from tango.formats.nav_episodes import NavEpisode
from tango.sim.config import EmbeddedSimConfig
from tango.types.poses import forward_vector
from tests.agent.synthetic import data_path

FORWARD_STEP_M = 0.25


@pytest.fixture(scope="module")
def episode(dataset_root: Path) -> NavEpisode:
    return objectnav.load_episodes(data_path(dataset_root, "objectnav"))[0]


@pytest.fixture(scope="module")
def session(dataset_root: Path) -> Iterator[SimSession]:
    sim = SimSession(EmbeddedSimConfig())
    yield sim
    sim.close()


@pytest.fixture
def started(session: SimSession, episode: NavEpisode, dataset_root: Path) -> SimSession:
    session.start(dataset_root / "scenes" / episode.scene_id, episode.start_position, episode.start_rotation)
    return session


def _face_open_space(session: SimSession) -> None:
    """Turn until the next metre ahead is navigable, so forward steps do not collide."""
    grid = session.simulator.navgrid
    for _ in range(12):
        ahead = [session.position() + k * FORWARD_STEP_M * forward_vector(session.yaw()) for k in range(1, 5)]
        if all(grid.is_navigable(p) for p in ahead):
            return
        session.step("turn_left")
    pytest.fail("no open direction at the episode start")


def test_start_gives_frames_of_the_configured_size(
    session: SimSession, episode: NavEpisode, dataset_root: Path
) -> None:
    obs = session.start(
        dataset_root / "scenes" / episode.scene_id, episode.start_position, episode.start_rotation
    )
    config = session.config
    assert obs.rgb.shape == (config.height, config.width, 3) and obs.rgb.dtype == np.uint8
    assert obs.depth.shape == (config.height, config.width) and obs.depth.dtype == np.float32
    assert obs.semantic is not None and obs.semantic.shape == (config.height, config.width)
    assert obs.rgb.std() > 0 and np.isfinite(obs.depth).all() and obs.depth.max() > 0
    assert np.allclose(obs.agent_position, episode.start_position, atol=0.05)
    assert session.path_length == 0.0 and session.pitch_deg == 0.0


def test_camera_pose_is_agent_position_plus_camera_height(started: SimSession) -> None:
    for action in ("turn_left", "move_forward", "turn_right", "turn_right"):
        obs = started.step(action)
        expected = obs.agent_position + np.array([0.0, started.config.camera_height, 0.0])
        assert np.allclose(obs.camera_pose[:3, 3], expected)
        camera_forward = obs.camera_pose[:3, :3] @ np.array([0.0, 0.0, -1.0])
        assert np.allclose(camera_forward, forward_vector(obs.agent_yaw), atol=1e-6)


def test_turns_change_the_yaw_by_the_turn_angle_and_do_not_add_path_length(started: SimSession) -> None:
    before = started.yaw()
    started.step("turn_left")
    turned = np.rad2deg(np.angle(np.exp(1j * (started.yaw() - before))))
    assert turned == pytest.approx(started.config.turn_angle, abs=0.5)
    assert started.path_length == pytest.approx(0.0, abs=1e-6)


def test_path_length_adds_a_quarter_metre_per_free_forward_step(started: SimSession) -> None:
    _face_open_space(started)
    before = started.path_length
    for k in range(1, 4):
        started.step("move_forward")
        assert not started.last_collided
        assert started.path_length - before == pytest.approx(k * FORWARD_STEP_M, abs=1e-3)


def test_restart_resets_distance_walked_and_pitch(
    started: SimSession, episode: NavEpisode, dataset_root: Path
) -> None:
    started.step("move_forward")
    started.step("look_up")
    started.start(dataset_root / "scenes" / episode.scene_id, episode.start_position, episode.start_rotation)
    assert (started.path_length, started.pitch_deg) == (0.0, 0.0)


def test_restart_levels_the_camera_it_reports_as_level(
    started: SimSession, episode: NavEpisode, dataset_root: Path
) -> None:
    scene = dataset_root / "scenes" / episode.scene_id
    level = started.start(scene, episode.start_position, episode.start_rotation).depth.copy()
    started.step("look_down")
    restarted = started.start(scene, episode.start_position, episode.start_rotation)
    try:
        assert np.allclose(restarted.depth, level, atol=1e-3)
    finally:
        started.step("look_up")


def test_look_up_and_down_track_the_pitch_and_tilt_the_camera(started: SimSession) -> None:
    tilt = started.config.tilt_angle
    obs = started.step("look_up")
    assert started.pitch_deg == pytest.approx(tilt)
    camera_forward = obs.camera_pose[:3, :3] @ np.array([0.0, 0.0, -1.0])
    assert np.rad2deg(np.arcsin(camera_forward[1])) == pytest.approx(tilt, abs=1e-6)
    started.step("look_down")
    started.step("look_down")
    assert started.pitch_deg == pytest.approx(-tilt)
    for _ in range(int(TILT_LIMIT_DEG / tilt) + 2):
        started.step("look_down")
    assert started.pitch_deg == pytest.approx(-TILT_LIMIT_DEG)
    assert started.path_length == pytest.approx(0.0, abs=1e-6)
    for _ in range(int(TILT_LIMIT_DEG / tilt)):
        started.step("look_up")
    assert started.pitch_deg == pytest.approx(0.0)


def test_pitch_changes_what_the_camera_sees(started: SimSession) -> None:
    level = started.step("turn_left").depth.copy()
    down = started.step("look_down").depth
    started.step("look_up")
    assert not np.allclose(level, down)


def test_render_at_another_pose_does_not_move_the_agent(started: SimSession, episode: NavEpisode) -> None:
    here = started.position().copy()
    view = episode.goals[0].view_points[0].agent_state
    image, semantic = started.render_at(view.position, view.rotation)
    assert semantic is not None and semantic.shape == image.shape[:2]
    assert image.shape == (started.config.height, started.config.width, 3) and image.dtype == np.uint8
    assert np.allclose(started.position(), here)
    assert not np.array_equal(image, started.step("turn_left").rgb)


def test_geodesic_distance_is_inf_without_goals_and_zero_at_a_goal(
    started: SimSession, episode: NavEpisode
) -> None:
    goal = episode.goals[0].view_points[0].agent_state.position
    assert started.geodesic_distance(list(started.position()), []) == float("inf")
    assert started.geodesic_distance(goal, [goal]) == pytest.approx(0.0, abs=0.1)
    assert (
        started.geodesic_distance(list(started.position()), [goal])
        >= np.linalg.norm(np.asarray(goal)[[0, 2]] - started.position()[[0, 2]]) - 0.1
    )


def test_render_at_does_not_depend_on_where_the_agent_looks(started: SimSession, episode: NavEpisode) -> None:
    view = episode.goals[0].view_points[0].agent_state
    level, _ = started.render_at(view.position, view.rotation)
    started.step("look_down")
    try:
        assert np.array_equal(started.render_at(view.position, view.rotation)[0], level)
    finally:
        started.step("look_up")


def test_deferred_images_are_drawn_when_read_to_the_same_bits(started: SimSession) -> None:
    """With defer_rgb the simulator skips the colour image; reading it later (after more steps) draws the same
    image the step would have given, and depth and ids are unchanged."""
    actions = ["turn_left", "turn_left", "turn_right", "look_down"]
    eager = [started.step(action) for action in actions]
    for action in ["look_up", "turn_left", "turn_right", "turn_right"]:  # back to the same poses in reverse
        started.step(action)
    started.defer_rgb = True
    try:
        deferred = [started.step(action) for action in actions]
        assert all(callable(obs.rgb_unrendered()) for obs in deferred)
        started.step("turn_left")
    finally:
        started.defer_rgb = False
    for now, later in zip(eager, deferred, strict=True):
        assert np.array_equal(now.depth, later.depth) and np.array_equal(now.semantic, later.semantic)
        assert np.array_equal(now.rgb, later.rgb)
    assert not callable(deferred[0].rgb_unrendered())  # drawn once, then kept


def test_a_view_with_the_agents_camera_is_the_agents_picture_and_other_intrinsics_change_it(
    started: SimSession, episode: NavEpisode
) -> None:
    """GOAT goal pictures are rendered by the camera the dataset stores (pose, hfov, size), not the agent's."""
    config = started.config
    view = episode.goals[0].view_points[0].agent_state
    camera = np.asarray(view.position, dtype=np.float64) + np.array([0.0, config.camera_height, 0.0])
    agents, agents_ids = started.render_at(view.position, view.rotation)
    found = started.render_view(camera, view.rotation, (config.width, config.height), config.hfov)
    assert found is not None
    image, ids = found
    assert np.array_equal(image, agents) and ids is not None and np.array_equal(ids, agents_ids)
    wide = started.render_view(camera, view.rotation, (160, 96), 110.0)
    assert wide is not None and wide[0].shape == (96, 160, 3) and wide[1] is not None
    narrow = started.render_view(camera, view.rotation, (config.width, config.height), 30.0)
    assert narrow is not None and not np.array_equal(narrow[0], image)


def test_a_view_has_no_instance_ids_when_the_agents_camera_has_no_semantic_sensor(
    dataset_root: Path, episode: NavEpisode
) -> None:
    session = SimSession(EmbeddedSimConfig(sensors=["rgb", "depth"]))
    try:
        session.start(
            dataset_root / "scenes" / episode.scene_id, episode.start_position, episode.start_rotation
        )
        view = episode.goals[0].view_points[0].agent_state
        found = session.render_view(view.position, view.rotation, (64, 64), 79.0)
        assert found is not None and found[1] is None and found[0].std() > 0
    finally:
        session.close()
