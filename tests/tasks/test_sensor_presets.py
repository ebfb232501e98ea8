"""Sensor presets (configs/sensors): the paper's cameras per task and the fast default, composed into `sim` over
any simulator preset, and recorded in every result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException
from PIL import Image

from tango.agent.sim_session import SimSession
from tango.eval import CONFIG_DIR
from tango.formats import goat
from tango.harness.run import run_evaluation
from tango.sim.habitat_env import sim_config_from_dict
from tango.tasks.goat import GoatFlow
from tango.types.goals import GoalImage
from tests.agent.synthetic import data_path, eval_config, read_jsonl

CAMERAS = {
    "fast": (256, 256, 79.0, 0.88),
    "goat": (360, 640, 42.0, 1.31),
    "hm3d": (640, 480, 79.0, 0.88),
}
"""Preset -> (width, height, hfov, camera height): GOAT as TANGO's zs_goat_settings.yaml (GOAT-Bench's Stretch
camera), ObjectNav/OVON as habitat-lab's objectnav_hm3d.yaml."""


def _sim(*overrides: str) -> Any:
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        return compose(config_name="eval", overrides=list(overrides)).sim


def test_every_sensor_preset_file_is_tested() -> None:
    assert {p.stem for p in (Path(CONFIG_DIR) / "sensors").glob("*.yaml")} == set(CAMERAS)


@pytest.mark.parametrize("preset", sorted(CAMERAS))
@pytest.mark.parametrize("sim", ["embedded", "habitat"])
def test_a_sensor_preset_sets_the_camera_and_keeps_the_simulator(preset: str, sim: str) -> None:
    config = _sim(f"sim={sim}", f"sensors={preset}")
    assert config.backend == sim and config.sensor_preset == preset
    assert (config.width, config.height, config.hfov, config.camera_height) == CAMERAS[preset]


def test_the_default_is_the_fast_preset_and_a_key_the_simulator_lacks_is_refused() -> None:
    assert _sim().sensor_preset == "fast"
    with pytest.raises(ConfigCompositionException, match="nonexistent_key"):
        _sim("sensors=goat", "sim.nonexistent_key=1")


def test_the_goat_camera_renders_tall_frames_from_its_height(dataset_root: Path) -> None:
    config = sim_config_from_dict(dict(_sim("sensors=goat")))
    episode = goat.load_episodes(data_path(dataset_root, "goat"))[0]
    session = SimSession(config)
    try:
        obs = session.start(dataset_root / "scenes" / episode.scene_id, episode.start_position,
                            episode.start_rotation)  # fmt: skip
    finally:
        session.close()
    assert obs.rgb.shape == (640, 360, 3) and obs.depth.shape == (640, 360)
    assert obs.hfov_deg == pytest.approx(42.0) and obs.rgb.std() > 0
    assert obs.camera_pose[1, 3] - episode.start_position[1] == pytest.approx(1.31)
    assert np.isfinite(obs.depth).all()


def test_a_goat_run_with_the_paper_camera_records_it(dataset_root: Path, tmp_path: Path) -> None:
    config = eval_config(
        dataset_root, "goat", tmp_path, "sensors=goat", "eval.num_episodes=1", "task.max_steps=20"
    )
    run_evaluation(config)
    (record,) = read_jsonl(tmp_path / "episodes.jsonl")
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert record["status"] == "ok", record["traceback"]
    camera = {"preset": "goat", "width": 360, "height": 640, "hfov": 42.0, "camera_height": 1.31}
    assert record["sensors"] == summary["sensors"] == camera
    assert summary["sensor_presets"] == ["goat"]
    episode = goat.load_episodes(data_path(dataset_root, "goat"))[0]
    stored = {
        i: tuple(task.image_goal.image_dimensions)
        for i, task in enumerate(episode.tasks)
        if task.image_goal is not None
    }
    pictures = {int(p.stem.rsplit("goal", 1)[1]): p for p in (tmp_path / "goals").glob("*.png")}
    assert pictures and set(pictures) <= set(stored)
    for index, path in pictures.items():  # the dataset's camera, not the agent's 360 x 640
        assert np.asarray(Image.open(path)).shape[:2] == stored[index] != (640, 360)


class _CameraRecorder:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def render_goal(self, position: Any, rotation: Any, size: tuple[int, int], hfov: float) -> GoalImage:
        self.calls.append((position, rotation, size, hfov))
        return GoalImage(np.zeros((size[1], size[0], 3), dtype=np.uint8), hfov)


def test_a_goal_picture_is_asked_for_at_the_stored_width_height_and_hfov() -> None:
    camera = goat.ImageGoalParameters((1.0, 1.2, 2.0), (0.0, 0.0, 0.0, 1.0), 55.0, (120, 200))
    instance = goat.GoatGoal(7, "vase", (1.0, 0.5, 1.0), (), image_goals=(camera,))
    subtask = goat.GoatSubtask("vase", "image", 7, 0, (instance,))
    recorder = _CameraRecorder()
    picture = GoatFlow.render_goal(subtask, recorder)  # type: ignore[arg-type]
    assert recorder.calls == [((1.0, 1.2, 2.0), (0.0, 0.0, 0.0, 1.0), (200, 120), 55.0)]
    assert picture.pixels.shape == (120, 200, 3) and picture.hfov_deg == 55.0
