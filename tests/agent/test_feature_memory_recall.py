"""With a CLIP value scorer (tiny random weights here: wiring, not quality) every frame's embedding goes into the
navigator's compact feature memory, and recall() of a text finds a remembered map cell through it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.agent.habitat_agent import frame_embedder
from tango.harness.episode import EpisodeContext
from tango.perception.clip import ClipEmbedder
from tango.programs.budget import Budget
from tango.tasks import objectnav
from tango.tasks.habitat_runner import HabitatRunner
from tests.agent.synthetic import data_path, eval_config
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
        "+task.agent.recall_threshold=-1.0",
    )
    built = HabitatRunner(config)
    yield built
    built.close()


def test_tiny_random_clip_frames_fill_the_memory_and_recall_reads_it(
    clip_runner: HabitatRunner, dataset_root: Path
) -> None:
    episode = objectnav.load_episodes(data_path(dataset_root, "objectnav"))[0]
    context = EpisodeContext(0, dataset_root, Path("/dev/null"), NoFrames())
    agent, _ = clip_runner._start(
        episode.scene_id, episode.start_position, episode.start_rotation, context, Budget(max_steps=50), []
    )
    assert isinstance(frame_embedder(agent.perception), ClipEmbedder)
    for _ in range(6):
        agent.turn_left()
    memory = agent.navigator.memory
    assert memory is not None and memory.num_frames == 7
    handles = [h for h in agent.recall("a chair") if h.object_id.endswith("@memory")]
    assert len(handles) == 1
    offset = np.asarray(handles[0].position) - agent.obs.agent_position
    assert 0.0 < float(np.hypot(offset[0], offset[2])) <= agent.navigator.config.map.max_depth
