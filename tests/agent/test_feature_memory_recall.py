"""TANGO's memory (`perception.memory.kind=frame_features`): each frame's embedding from the value scorer goes into
the compact per-cell feature map; when the search target changes, the memory is compared once with the target
and explore_scene() first heads for the best match above the threshold.

Two embedders feed it here: a tiny random-weight CLIP (wiring, not quality) and the ORACLE embedder of the
`text_oracle` scorer (MiniLM over the annotated categories in view; registered as an oracle and listed in
oracle_components), which shows the threshold separating targets the agent saw from targets it did not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.agent.habitat_agent import HabitatAgent
from tango.formats import objectnav
from tango.harness.episode import EpisodeContext
from tango.perception.build import describe_config
from tango.perception.memories import FrameFeatureMemory
from tango.perception.oracle.scorer import OracleTextScorer
from tango.perception.value_scorers import ClipScorer
from tango.tasks.habitat.episode_run import SimEpisode
from tango.tasks.habitat.runner import HabitatRunner
from tango.trace.writer import Trace
from tests.agent.synthetic import data_path, eval_config, plugin
from tests.agent.test_habitat_agent import NoFrames
from tests.perception import tiny_models

ORACLE_THRESHOLD = 0.6


def _runner(dataset_root: Path, out: Path, *overrides: str) -> HabitatRunner:
    return plugin("objectnav").make_runner(eval_config(dataset_root, "objectnav", out, *overrides))


def _agent(runner: HabitatRunner, dataset_root: Path) -> HabitatAgent:
    episode = objectnav.load_episodes(data_path(dataset_root, "objectnav"))[0]
    run = SimEpisode(runner, EpisodeContext(0, dataset_root, Path("/dev/null"), NoFrames()), Trace())
    run.start(episode.scene_id, episode.start_position, episode.start_rotation)
    return run.agent


@pytest.fixture(scope="module")
def clip_runner(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HabitatRunner]:
    clip_model = tiny_models.save_tiny_open_clip(tmp_path_factory.mktemp("clip") / "open_clip")
    built = _runner(
        dataset_root,
        tmp_path_factory.mktemp("clip_run"),
        "perception.scorer.kind=clip",
        f"perception.scorer.clip.model={clip_model}",
        "perception.scorer.clip.pretrained=",
        "perception.memory.kind=frame_features",
        "perception.memory.threshold=-1.0",
    )
    yield built
    built.close()


@pytest.fixture(scope="module")
def oracle_runner(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HabitatRunner]:
    built = _runner(
        dataset_root,
        tmp_path_factory.mktemp("oracle_run"),
        "perception=oracle",
        "perception.memory.kind=frame_features",
        f"perception.memory.threshold={ORACLE_THRESHOLD}",
    )
    yield built
    built.close()


def test_tiny_random_clip_scorer_embeddings_fill_the_memory_once_per_frame(
    clip_runner: HabitatRunner, dataset_root: Path
) -> None:
    agent = _agent(clip_runner, dataset_root)
    memory, scorer = agent.perception.memory, agent.perception.scorer
    assert isinstance(memory, FrameFeatureMemory) and isinstance(scorer, ClipScorer)
    assert memory.scorer is scorer, "the memory stores the value scorer's own embeddings"
    for _ in range(6):
        agent.turn_left()
    assert memory.store is not None and memory.store.num_frames == 7
    stored = memory.store.embeddings[-1]
    assert np.allclose(stored, scorer.image_embedding(agent.obs), atol=1e-6)
    text = scorer.text_embedding("a chair")
    assert float(stored @ text) == pytest.approx(float(scorer.score(agent.obs, ["a chair"])[0]), abs=1e-5)


def test_tiny_random_clip_place_is_compared_once_per_target_and_explore_goes_there_first(
    clip_runner: HabitatRunner, dataset_root: Path
) -> None:
    agent = _agent(clip_runner, dataset_root)
    memory = agent.perception.memory
    assert isinstance(memory, FrameFeatureMemory)
    for _ in range(6):
        agent.turn_left()
    place = memory.place("a chair")
    assert place is not None and place.key == "a chair@memory"
    offset = np.asarray(place.point) - agent.obs.agent_position
    assert 0.0 < float(np.hypot(offset[0], offset[2])) <= agent.navigator.config.map.max_depth
    compared = memory.comparisons
    assert memory.place("a chair") is place and memory.comparisons == compared
    assert memory.recall("a chair") == [], "a remembered view is a place to look, not an object"
    agent.detect("a sofa")
    assert memory.comparisons == compared + 1 and agent.memory_search is not None
    assert agent.memory_searches == 1
    search = agent.memory_search
    assert np.array_equal(search.point, memory.place("a sofa").point)  # type: ignore[union-attr]
    agent.detect("a lamp")
    agent.detect("a sofa")  # no frame since: the same place, already searched in this subtask
    assert agent.memory_search is None and agent.memory_searches <= 2
    agent.new_goal()  # a new subtask may search any place again
    agent.detect("a chair")
    search, steps = agent.memory_search, agent.budget.steps
    assert search is not None and np.array_equal(search.point, memory.place("a chair").point)  # type: ignore[union-attr]
    agent.explore_step()
    assert agent.budget.steps == steps + 1 and agent.memory_search is search, (
        "the step was the memory search's"
    )


def test_the_oracle_embedder_is_an_oracle_and_named_in_the_results(oracle_runner: HabitatRunner) -> None:
    described = describe_config(oracle_runner.perception_config)
    assert "scorer" in described["oracle_components"]
    assert described["memory"]["features_from"] == "scorer:text_oracle"
    assert described["memory"]["threshold"] == ORACLE_THRESHOLD


def test_the_oracle_embedder_places_a_seen_category_near_it_and_not_an_unseen_one(
    oracle_runner: HabitatRunner, dataset_root: Path
) -> None:
    agent = _agent(oracle_runner, dataset_root)
    memory, scorer = agent.perception.memory, agent.perception.scorer
    assert isinstance(memory, FrameFeatureMemory) and isinstance(scorer, OracleTextScorer)
    agent.look_around()
    truth = agent.perception.ground_truth
    assert truth is not None
    # where each seen category really is (an object seen only beyond the depth range has no observed point)
    seen = {entry.object.category: entry.object.center for entry in truth.observed.objects()}
    assert seen, "the start view shows annotated objects"
    annotated = {o.category for o in truth.scene.objects.values()}
    unseen = sorted({"bathtub", "piano", "toilet", "refrigerator", "bed"} - annotated - set(seen))
    assert unseen, "the test needs a category that is not in the scene"
    hits = 0
    for category, where in seen.items():
        place = memory.place(category)
        if place is not None:
            hits += 1
            distance = float(np.hypot(*(np.asarray(place.point) - np.asarray(where))[[0, 2]]))
            assert distance <= agent.navigator.config.map.max_depth + 1.0, (category, distance)
    assert hits >= len(seen) // 2, f"{hits} of {len(seen)} seen categories placed"
    for category in unseen:
        assert memory.place(category) is None, category
