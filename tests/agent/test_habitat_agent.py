"""HabitatAgent on a synthetic apartment with oracle perception: what detect() and recall() may return.

The agent must only know objects it has seen: every handle detect() or recall() returns is an object that
was in the current frame or in an earlier frame the agent saw (its instance id was in a semantic frame).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tango.agent.habitat_agent import HabitatAgent
from tango.formats import objectnav
from tango.navigation.navigator import Navigator
from tango.perception.build import PerceptionBundle
from tango.perception.image_goal import MatchResult
from tango.perception.image_goal_search import KeypointLocator
from tango.perception.oracle.ground_truth import GroundTruth
from tango.tasks.habitat.runner import HabitatRunner
from tango.trace.budget import Budget
from tango.types.goals import GoalImage, ObjectHandle
from tango.types.observation import Observation
from tests.agent.synthetic import data_path, eval_config, plugin


class NoFrames:
    """A FrameSink with video off."""

    enabled = False

    def add(
        self, rgb: np.ndarray, depth: np.ndarray | None = None, topdown: Any = None, program_line: str = ""
    ) -> None:
        raise AssertionError("frames are off")


class SeenFrames:
    """Wraps a session's step() to collect every instance id in the semantic frames the agent receives."""

    def __init__(self, first: Observation) -> None:
        self.ids: set[int] = set()
        self.add(first)

    def add(self, obs: Observation) -> Observation:
        assert obs.semantic is not None
        self.ids |= {int(i) for i in np.unique(obs.semantic) if i > 0}
        return obs


@pytest.fixture(scope="module")
def runner(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HabitatRunner]:
    built = plugin("objectnav").make_runner(
        eval_config(dataset_root, "objectnav", tmp_path_factory.mktemp("agent"))
    )
    yield built
    built.close()


def _agent(
    runner: HabitatRunner, dataset_root: Path, episode_index: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[HabitatAgent, SeenFrames]:
    episode = objectnav.load_episodes(data_path(dataset_root, "objectnav"))[episode_index]
    scene = dataset_root / "scenes" / episode.scene_id
    first = runner.session.start(scene, episode.start_position, episode.start_rotation)
    seen = SeenFrames(first)
    truth = GroundTruth.load(scene.with_name(scene.stem + ".annotations.json"), 100)
    perception = PerceptionBundle(runner.perception_config, truth)
    agent = HabitatAgent(
        runner.session, first, Navigator(runner.agent_config), perception, Budget(max_steps=200), NoFrames(),
        runner.agent_config.primitives,
    )  # fmt: skip
    step = runner.session.step
    monkeypatch.setattr(runner.session, "step", lambda action: seen.add(step(action)))
    return agent, seen


def _instance(handle_id: str) -> int:
    label, _, instance = handle_id.rpartition("#")
    assert label and instance.isdigit(), f"oracle handles are keyed label#instance, got {handle_id!r}"
    return int(instance)


@pytest.mark.parametrize("episode_index", [0, 1])
def test_detect_and_recall_only_return_objects_the_agent_has_seen(
    runner: HabitatRunner, dataset_root: Path, episode_index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, seen = _agent(runner, dataset_root, episode_index, monkeypatch)
    assert agent.perception.ground_truth is not None
    oracle = agent.perception.ground_truth.scene
    categories = sorted({o.category for o in oracle.objects.values()})
    returned: set[int] = set()
    for step in range(40):
        if step < 12:
            agent.turn_left()
        elif not agent.explore_step():
            break
        if step % 4:
            continue
        for category in categories:
            for handle in agent.detect(category) + agent.recall(category):
                instance = _instance(handle.object_id)
                assert instance in seen.ids, f"step {step}: {category} #{instance} was never in view"
                assert oracle.objects[instance].category == category
                returned.add(instance)
    assert returned, "nothing was ever detected: the test did not exercise detect()"
    assert returned < set(oracle.objects), "every object was detected: the test cannot tell seen from unseen"


def test_detect_finds_what_is_in_the_current_frame(
    runner: HabitatRunner, dataset_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = _agent(runner, dataset_root, 0, monkeypatch)
    assert agent.perception.ground_truth is not None
    oracle = agent.perception.ground_truth.scene
    min_pixels = runner.perception_config.detector.min_pixels
    for _ in range(12):
        agent.turn_left()
        semantic = agent.obs.semantic
        assert semantic is not None
        ids, counts = np.unique(semantic, return_counts=True)
        big = [int(i) for i, n in zip(ids, counts) if i in oracle.objects and n >= 4 * min_pixels]
        for instance in big:
            category = oracle.objects[instance].category
            found = {_instance(h.object_id) for h in agent.detect(category)}
            assert instance in found, f"{category} #{instance} fills {counts[ids == instance][0]} pixels"


class CountingMatcher:
    """An image matcher that matches every view and counts the comparisons made per goal picture."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult:
        self.calls.append(int(goal_rgb[0, 0, 0]))
        return MatchResult(10, 10, True, 10.0)


def test_a_new_goal_image_is_compared_with_every_view(
    runner: HabitatRunner, dataset_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = _agent(runner, dataset_root, 0, monkeypatch)
    matcher = CountingMatcher()
    locator = KeypointLocator(matcher)
    for _ in range(6):
        agent.turn_left()
    first = GoalImage(np.full((8, 8, 3), 1, dtype=np.uint8))
    assert len(locator.locate(first, agent.keyframes)) == 1
    assert matcher.calls == [1] * len(agent.keyframes.views)
    locator.locate(first, agent.keyframes)
    assert matcher.calls == [1] * len(agent.keyframes.views), "views already compared were compared again"
    agent.turn_left()
    agent.turn_left()
    agent.turn_left()
    locator.locate(first, agent.keyframes)
    assert matcher.calls == [1] * len(agent.keyframes.views), "each new view is compared once"
    second = GoalImage(np.full((8, 8, 3), 2, dtype=np.uint8))
    locator.locate(second, agent.keyframes)
    assert matcher.calls.count(2) == len(agent.keyframes.views)


def test_navigate_to_refuses_a_position_off_the_scene_before_moving(
    runner: HabitatRunner, dataset_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = _agent(runner, dataset_root, 0, monkeypatch)
    lower, upper = runner.session.scene_bounds()
    assert np.all(lower[[0, 2]] < upper[[0, 2]])
    here = agent.agent_position()
    assert lower[0] <= here[0] <= upper[0] and lower[2] <= here[2] <= upper[2]
    for far in [(1e30, here[1], here[2]), (here[0], here[1], upper[2] + 5.0), (float("nan"), 0.0, 0.0)]:
        with pytest.raises(ValueError, match="finite|outside the scene"):
            agent.navigate_to(far)
    assert agent.budget.steps == 0
    assert agent.navigate_to(here) is True


def _first_detection(agent: HabitatAgent, categories: list[str]) -> ObjectHandle:
    """Turn until the oracle detector reports one of `categories`; its handle."""
    for _ in range(12):
        for category in categories:
            found = agent.detect(category)
            if found:
                return found[0]
        agent.turn_left()
    raise AssertionError("nothing detected in a full turn: the test cannot check verify()")


def test_verify_confirms_an_object_that_is_there_and_rejects_one_that_is_not(
    runner: HabitatRunner, dataset_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, _ = _agent(runner, dataset_root, 0, monkeypatch)
    assert agent.perception.ground_truth is not None
    oracle = agent.perception.ground_truth.scene
    real = _first_detection(agent, sorted({o.category for o in oracle.objects.values()}))
    confirmed = agent.verify(real)
    assert confirmed is not None and confirmed.label == real.label
    assert np.hypot(*np.subtract(confirmed.position, real.position)[[0, 2]]) <= agent.settings.verify_radius
    # a phantom: a category with no instance within 3 m, reported at the real object's place
    absent = next(
        o.category
        for o in oracle.objects.values()
        if all(
            p.category != o.category or np.hypot(*(np.asarray(p.center) - real.position)[[0, 2]]) > 3.0
            for p in oracle.objects.values()
        )
    )
    phantom = ObjectHandle(absent, real.position, 0.5, f"{absent}@phantom")
    agent.remembered.handles[phantom.object_id] = phantom
    steps = agent.budget.steps
    assert agent.verify(phantom) is None
    assert agent.budget.steps - steps <= 25, "a check near the object costs the views and a short drive"
    near = np.hypot(*np.subtract(agent.agent_position(), real.position)[[0, 2]])
    assert near <= agent.settings.reach_distance + agent.settings.arrive_tolerance, "no closer look was taken"
    assert phantom.object_id not in agent.remembered.handles
    assert all(h.object_id != phantom.object_id for h in agent.detect(absent))
    assert agent.rejections.near(absent, np.asarray(real.position))
