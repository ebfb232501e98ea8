"""Every non-oracle perception preset runs with the semantic sensor off and no scene annotation on disk.

Each preset is built with tiny random-weight models (wiring, not quality) on a copy of the tiny dataset whose
`*.annotations.json` files are deleted; building a `GroundTruth` or loading an annotation fails the test, and
every frame the agent receives and every goal picture must come without a semantic frame. The agent then
exercises every component: detection, exploration with value scores and memory, recall, description and image
goals, questions and rooms.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.formats import goat
from tango.harness.episode import EpisodeContext
from tango.perception.oracle import scene as oracle_scene
from tango.perception.oracle.ground_truth import GroundTruth
from tango.sim import scene as scene_files
from tango.tasks.habitat.episode_run import SimEpisode
from tango.trace.writer import Trace
from tango.types.observation import Observation
from tests.agent.synthetic import data_path, eval_config, plugin
from tests.agent.test_habitat_agent import NoFrames
from tests.support.chat_server import ChatServer

NON_ORACLE_PRESETS = ("owlv2", "owlvit", "tango", "vlm", "yolo")
CLIP_SECTIONS = ("scorer", "description", "room", "filter")
INSTANCE_KEY = re.compile(r"#\d+$")


@pytest.fixture(scope="module")
def blind_dataset(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny dataset without any scene annotation file."""
    root = tmp_path_factory.mktemp("blind") / "dataset"
    shutil.copytree(dataset_root, root)
    for annotation in root.rglob("*.annotations.json"):
        annotation.unlink()
    assert not list(root.rglob("*.annotations.json"))
    return root


@pytest.fixture(scope="module")
def chat() -> Iterator[ChatServer]:
    with ChatServer(default_text="a red chair") as server:
        yield server


def tiny_overrides(preset: str, tiny: dict[str, str], chat_url: str) -> list[str]:
    """Point every model path of `preset` at the tiny checkpoints."""
    overrides = ["perception.device=cpu", f"perception.answerer.path={tiny['vqa']}"]
    for section in CLIP_SECTIONS:
        overrides += [
            f"perception.{section}.clip.model={tiny['clip']}",
            f"perception.{section}.clip.pretrained=",
        ]
    detector = {"owlv2": "owlv2", "owlvit": "owlvit", "tango": "owlv2", "vlm": "owlv2", "yolo": "yolo"}[
        preset
    ]
    overrides.append(f"perception.detector.path={tiny[detector]}")
    if preset == "tango":
        overrides += [
            f"perception.detector.detr_path={tiny['detr']}",
            f"perception.scorer.path={tiny['itm']}",
        ]
    if preset == "vlm":
        overrides += [f"perception.answerer.llm.base_url={chat_url}", "perception.answerer.llm.api_key=test"]
    if preset == "yolo":
        overrides.append("perception.detector.threshold=0.05")
    return overrides


def _forbid_ground_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a non-oracle configuration reached the ground truth")

    monkeypatch.setattr(GroundTruth, "__init__", refuse)
    monkeypatch.setattr(scene_files, "load_annotations", refuse)
    monkeypatch.setattr(oracle_scene, "load_annotations", refuse)


@pytest.mark.parametrize("preset", NON_ORACLE_PRESETS)
def test_non_oracle_preset_runs_without_semantic_sensor_or_annotations(
    preset: str,
    blind_dataset: Path,
    tiny: dict[str, str],
    chat: ChatServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _forbid_ground_truth(monkeypatch)
    config = eval_config(
        blind_dataset, "goat", tmp_path, f"perception={preset}", *tiny_overrides(preset, tiny, chat.base_url)
    )
    runner = plugin("goat").make_runner(config)
    try:
        assert runner.oracle_components == [] and runner.describe()["perception"]["oracle_components"] == []
        assert "semantic" not in runner.sim_config.sensors
        frames: list[Observation] = []
        step = runner.session.step
        monkeypatch.setattr(runner.session, "step", lambda action: frames.append(step(action)) or frames[-1])
        episode = goat.load_episodes(data_path(blind_dataset, "goat"))[0]
        run = SimEpisode(runner, EpisodeContext(0, tmp_path, tmp_path / "trace.jsonl", NoFrames()), Trace())
        run.start(episode.scene_id, episode.start_position, episode.start_rotation)
        agent = run.agent
        frames.append(agent.obs)
        handles = agent.detect("chair")
        for _ in range(14):
            agent.explore_step()
        handles += agent.recall("chair") + agent.match_description("the red chair next to the table")
        image_task = next(t for t in episode.tasks if t.goal_type == "image")
        camera = image_task.image_goal
        assert camera is not None
        height, width = camera.image_dimensions
        picture = run.render_goal(camera.position, camera.rotation, (width, height), camera.hfov)
        assert picture.semantic is None and picture.camera_pose is None and picture.pixels.std() > 0
        handles += agent.match_image(picture)
        assert isinstance(agent.answer("What color is the chair?"), str)
        assert agent.classify_room() in runner.perception_config.room.rooms
        assert len(frames) > 10 and all(frame.semantic is None for frame in frames)
        assert not [h.object_id for h in handles if INSTANCE_KEY.search(h.object_id)], "instance ids leaked"
        assert all(np.isfinite(h.position).all() for h in handles)
    finally:
        runner.close()
