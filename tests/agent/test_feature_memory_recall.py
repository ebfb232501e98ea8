"""With the frame-feature memory (tiny random-weight CLIP here: wiring, not quality) every frame's embedding goes
into the compact feature memory over the navigator's map, and recall() of a text finds a remembered area."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.harness.episode import EpisodeContext
from tango.perception.memories import FrameFeatureMemory
from tango.perception.value_scorers import ClipScorer
from tango.programs.trace import Trace
from tango.tasks import objectnav
from tango.tasks.habitat.episode_run import SimEpisode
from tango.tasks.habitat.runner import HabitatRunner
from tests.agent.synthetic import data_path, eval_config, plugin
from tests.agent.test_habitat_agent import NoFrames
from tests.perception import tiny_models


@pytest.fixture(scope="module")
def clip_runner(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HabitatRunner]:
    clip_model = tiny_models.save_tiny_open_clip(tmp_path_factory.mktemp("clip") / "open_clip")
    config = eval_config(
        dataset_root,
        "objectnav",
        tmp_path_factory.mktemp("clip_run"),
        "perception.scorer.kind=clip",
        f"perception.scorer.clip.model={clip_model}",
        "perception.scorer.clip.pretrained=",
        "perception.memory.kind=frame_features",
        f"perception.memory.clip.model={clip_model}",
        "perception.memory.clip.pretrained=",
        "perception.memory.threshold=-1.0",
    )
    built = plugin("objectnav").make_runner(config)
    yield built
    built.close()


def test_tiny_random_clip_frames_fill_the_memory_and_recall_reads_it(
    clip_runner: HabitatRunner, dataset_root: Path
) -> None:
    episode = objectnav.load_episodes(data_path(dataset_root, "objectnav"))[0]
    run = SimEpisode(clip_runner, EpisodeContext(0, dataset_root, Path("/dev/null"), NoFrames()), Trace())
    run.start(episode.scene_id, episode.start_position, episode.start_rotation)
    agent = run.agent
    agent.prompt = "a chair"
    memory = agent.perception.memory
    scorer = agent.perception.scorer
    assert isinstance(memory, FrameFeatureMemory) and isinstance(scorer, ClipScorer)
    assert memory.clip is scorer.clip, "the scorer and the memory embed each frame with one shared model"
    for _ in range(6):
        agent.turn_left()
    assert memory.store is not None and memory.store.num_frames == 7
    handles = [h for h in agent.recall("a chair") if h.object_id.endswith("@memory")]
    assert len(handles) == 1
    offset = np.asarray(handles[0].position) - agent.obs.agent_position
    assert 0.0 < float(np.hypot(offset[0], offset[2])) <= agent.navigator.config.map.max_depth
