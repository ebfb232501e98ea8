"""habitat-lab's measures are the judge: the same fixed trajectories, driven through habitat-lab's own Env (its
DistanceToGoal, Success, SPL and SoftSPL on TangoSim-v0) and through our task flows (SimEpisode.score_stop over
tango/tasks/measures.py), give the same values to 1e-6, at the benchmark's radius and at the lenient one.

ObjectNav episodes reach habitat-lab through its own ObjectNavDatasetV1 reading the file. HM3D-OVON and
GOAT-Bench score with habitat-lab's Success/SPL/SoftSPL over their own distance-to-goal: ovon's
OVONDistanceToGoal (ovon/measurements/nav.py) measures to the view points of the category's goals and its
children categories' goals; GOAT-Bench's GoatSuccess/GoatSPL/GoatSoftSPL (goat_bench/measurements/nav.py)
restart at each subtask, from where the previous one stopped, over the view points of that subtask's goals,
with success `distance < 0.25`. So an OVON episode, and each GOAT subtask, is judged as a habitat-lab ObjectNav
episode built from the loaded goals that starts where it starts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tango.formats.goat import GoatEpisode
from tango.formats.nav_episodes import resolve_scene_path
from tango.habitat_compat import ensure_habitat_importable
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.run import run_evaluation
from tango.primitives.context import AgentContext
from tango.programs.interpreter import RunResult
from tango.sim.follower import OracleGeodesicFollower
from tango.sim.habitat_env import make_objectnav_env, sim_config_from_dict
from tango.tasks.goat_program import subtask_instruction
from tango.tasks.habitat.plugin import HabitatTask
from tango.tasks.habitat.runner import HabitatRunner
from tests.agent.synthetic import TaskWrapper, data_path, eval_config, plugin, read_jsonl

ensure_habitat_importable()

from habitat.core.simulator import AgentState
from habitat.tasks.nav.object_nav_task import ObjectGoal, ObjectGoalNavEpisode, ObjectViewLocation

LENIENT = 1.0
MEASURES = ("success", "spl", "soft_spl", "distance_to_goal")
WANDER = ["turn_left"] * 2 + ["move_forward"] * 8 + ["turn_right"] * 4 + ["move_forward"] * 6 + ["look_down"]
"""A fixed walk that bumps into things on the way (collisions leave the agent in place)."""
KINDS = ("reach", "near", "wander")
"""Trajectory kinds, taken in turn over the episodes and subtasks: to a view point (a benchmark success), stopping
0.5 m short (a lenient-only success), and the fixed walk."""
SMALL_SENSORS = ("sim.width=64", "sim.height=64")
"""Measures depend on motion only: small frames keep the agent's per-step mapping cheap (both sides use them)."""


@dataclass
class Judged:
    """One (sub)task as habitat-lab saw it: the movement actions before its stop and habitat-lab's metrics."""

    actions: list[str]
    metrics: dict[str, float]
    lenient_success: float


class Judge:
    """habitat-lab Envs at the benchmark radius and the lenient one, on our simulator settings."""

    def __init__(self, root: Path, config: dict[str, Any]) -> None:
        sim = sim_config_from_dict(dict(config["sim"]))
        objectnav_file = data_path(root, "objectnav")
        radius = float(config["task"]["success_distance"])
        self.env = make_objectnav_env(objectnav_file, root / "scenes", sim, success_distance=radius)
        self.lenient = make_objectnav_env(objectnav_file, root / "scenes", sim, success_distance=LENIENT)
        self.radius = radius
        self.file_episodes: list[ObjectGoalNavEpisode] = list(self.env.episodes)
        """The ObjectNav file's episodes as habitat-lab's ObjectNavDatasetV1 read them."""

    def close(self) -> None:
        self.env.close()
        self.lenient.close()

    def drive(self, episode: ObjectGoalNavEpisode, kind: str) -> Judged:
        """Drive `episode` by a trajectory of `kind`, then stop; both Envs replay the same actions."""
        for env in (
            self.env,
            self.lenient,
        ):  # the goal sensor of an in-memory episode needs its category's id
            categories = env._dataset.category_to_task_category_id
            categories.setdefault(episode.object_category, len(categories))
        self.env.episodes = [episode]
        self.env.reset()
        actions = self._drive(kind)
        self.env.step("stop")
        assert self.env.episode_over
        self.lenient.episodes = [episode]
        self.lenient.reset()
        for action in [*actions, "stop"]:
            self.lenient.step(action)
        lenient_metrics = self.lenient.get_metrics()
        metrics = {name: float(self.env.get_metrics()[name]) for name in MEASURES}
        assert float(lenient_metrics["distance_to_goal"]) == pytest.approx(
            metrics["distance_to_goal"], abs=1e-9
        )
        return Judged(actions, metrics, float(lenient_metrics["success"]))

    def end_pose(self) -> tuple[list[float], list[float]]:
        """Where the last driven episode stopped: position and rotation [x, y, z, w]."""
        state = self.env.sim.get_agent_state()
        rotation = state.rotation
        return [float(v) for v in state.position], [rotation.x, rotation.y, rotation.z, rotation.w]

    def _drive(self, kind: str) -> list[str]:
        """Step the Env along a trajectory of `kind` (up to, not including, its stop); the actions taken."""
        if kind == "wander":
            for action in WANDER:
                self.env.step(action)
            return list(WANDER)
        goals = [v.agent_state.position for g in self.env.current_episode.goals for v in g.view_points]
        stop = 0.5 * self.radius if kind == "reach" else 0.5
        follower = OracleGeodesicFollower(self.env.sim, goals, stop_distance=stop)
        actions: list[str] = []
        while (action := follower.next_action()) != "stop":
            actions.append(action)
            self.env.step(action)
            assert len(actions) < 300, "the follower did not arrive"
        return actions


def habitat_episode(
    episode_id: str, scene: Path, start: tuple[Any, Any], category: str, goals: Any
) -> ObjectGoalNavEpisode:
    """A habitat-lab ObjectNav episode over already loaded goals (OVON episodes and GOAT subtasks)."""
    return ObjectGoalNavEpisode(
        episode_id=episode_id,
        scene_id=str(scene),
        start_position=[float(v) for v in start[0]],
        start_rotation=[float(v) for v in start[1]],
        object_category=category,
        goals=[
            ObjectGoal(
                position=list(goal.position),
                object_id=str(goal.object_id),
                object_category=category,
                view_points=[
                    ObjectViewLocation(
                        agent_state=AgentState(list(v.agent_state.position), list(v.agent_state.rotation)),
                        iou=v.iou,
                    )
                    for v in goal.view_points
                ],
            )
            for goal in goals
        ],
    )


class ReplayTask(TaskWrapper):
    """A task plugin whose runners drive each (sub)task's recorded actions before its program (`stop()`) runs."""

    def __init__(self, task: HabitatTask, actions: dict[tuple[str, int], list[str]]) -> None:
        super().__init__(task)
        self.actions = actions

    def make_runner(self, cfg: dict[str, Any]) -> HabitatRunner:
        runner = self.task.make_runner(cfg)
        run_program, run_episode = runner.interpreter.run, runner.run
        current: dict[str, Any] = {}

        def drive_then_run(program: Any, ctx: AgentContext) -> RunResult:
            key = (current["episode"], current["subtask"])
            current["subtask"] += 1
            for action in self.actions[key]:
                runner.session.step(action)
            return run_program(program, ctx)

        def run(spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
            current.update(episode=spec.episode_id, subtask=0)
            return run_episode(spec, ctx)

        runner.interpreter.run = drive_then_run  # type: ignore[method-assign]
        runner.run = run  # type: ignore[method-assign]
        return runner


def our_records(root: Path, task: str, out: Path, actions: dict[tuple[str, int], list[str]],
                instructions: set[str], *overrides: str) -> list[dict[str, Any]]:  # fmt: skip
    """Run the task's own flow with the recorded actions and a replayed `stop()` per program."""
    replay = out.parent / f"{task}_stop.jsonl"
    replay.write_text(
        "".join(json.dumps({"instruction": i, "program": "stop()"}) + "\n" for i in instructions)
    )
    config = eval_config(
        root, task, out, "generator=replay", f"generator.replay_path={replay}", *SMALL_SENSORS, *overrides
    )
    run_evaluation(config, plugin=ReplayTask(plugin(task), actions))
    records = read_jsonl(out / "episodes.jsonl")
    assert all(r["failure_reason"] is None and r["status"] == "ok" for r in records), records
    return records


def assert_same(ours: dict[str, Any], judged: Judged, radius: float) -> None:
    for name in MEASURES:
        assert ours[name] == pytest.approx(judged.metrics[name], abs=1e-6), (name, ours, judged.metrics)
    assert ours["lenient_success"] == judged.lenient_success
    assert ours["success"] == float(bool(ours["called_stop"]) and ours["distance_to_goal"] < radius)


def compare_episodes(
    root: Path, task: str, tmp_path: Path, judged: dict[str, Judged], instructions: set[str], radius: float
) -> None:
    """Our flow on the judged episodes' actions scores each one as habitat-lab did."""
    actions = {(episode_id, 0): j.actions for episode_id, j in judged.items()}
    records = our_records(root, task, tmp_path / "ours", actions, instructions)
    assert sorted(r["episode_id"] for r in records) == sorted(judged)
    for record in records:
        assert_same(record["metrics"], judged[record["episode_id"]], radius)


@pytest.fixture(scope="module")
def judged_outcomes() -> list[Judged]:
    return []


@pytest.fixture(scope="module")
def judges(dataset_root: Path) -> Iterator[dict[str, Judge]]:
    made: dict[str, Judge] = {}
    yield made
    for judge in made.values():
        judge.close()


def _judge(judges: dict[str, Judge], root: Path, task: str, tmp_path: Path) -> tuple[Judge, dict[str, Any]]:
    config = eval_config(root, task, tmp_path / "config", *SMALL_SENSORS)
    if task not in judges:
        judges[task] = Judge(root, config)
    return judges[task], config


def test_objectnav_measures_equal_habitat_labs_on_its_own_reading_of_the_file(
    dataset_root: Path, judges: dict[str, Judge], judged_outcomes: list[Judged], tmp_path: Path
) -> None:
    judge, config = _judge(judges, dataset_root, "objectnav", tmp_path)
    assert judge.radius == 0.1
    judged = {e.episode_id: judge.drive(e, KINDS[i % len(KINDS)]) for i, e in enumerate(judge.file_episodes)}
    instructions = {s.instruction for s in plugin("objectnav").list_episodes(config)}
    compare_episodes(dataset_root, "objectnav", tmp_path, judged, instructions, judge.radius)
    judged_outcomes.extend(judged.values())


def test_ovon_measures_equal_habitat_labs_over_the_loaded_goals(
    dataset_root: Path, judges: dict[str, Judge], judged_outcomes: list[Judged], tmp_path: Path
) -> None:
    judge, config = _judge(judges, dataset_root, "ovon", tmp_path)
    assert judge.radius == 0.25
    specs = plugin("ovon").list_episodes(config)
    judged: dict[str, Judged] = {}
    for index, spec in enumerate(specs):
        episode = spec.payload
        scene = resolve_scene_path(episode.scene_id, dataset_root / "scenes")
        start = (episode.start_position, episode.start_rotation)
        habitat_ep = habitat_episode(spec.episode_id, scene, start, episode.object_category, episode.goals)
        judged[spec.episode_id] = judge.drive(habitat_ep, KINDS[(index + 2) % len(KINDS)])
    compare_episodes(dataset_root, "ovon", tmp_path, judged, {s.instruction for s in specs}, judge.radius)
    judged_outcomes.extend(judged.values())


def test_goat_subtask_measures_equal_habitat_labs_from_each_subtask_start(
    dataset_root: Path, judges: dict[str, Judge], judged_outcomes: list[Judged], tmp_path: Path
) -> None:
    judge, config = _judge(judges, dataset_root, "goat", tmp_path)
    assert judge.radius == 0.25
    specs = plugin("goat").list_episodes(config)
    judged: dict[tuple[str, int], Judged] = {}
    instructions: set[str] = set()
    for spec in specs:
        episode: GoatEpisode = spec.payload
        scene = resolve_scene_path(episode.scene_id, dataset_root / "scenes")
        start: tuple[Any, Any] = (episode.start_position, episode.start_rotation)
        for index, subtask in enumerate(episode.tasks):
            habitat_ep = habitat_episode(f"{spec.episode_id}/{index}", scene, start, subtask.category,
                                         subtask.goals)  # fmt: skip
            judged[(spec.episode_id, index)] = judge.drive(habitat_ep, KINDS[index % len(KINDS)])
            start = judge.end_pose()
            instructions.add(subtask_instruction(subtask))
    actions = {key: j.actions for key, j in judged.items()}
    # one program per subtask, so each subtask's recorded actions drive its own program (the scoring is the
    # same in episode mode: tests/tasks/test_goat_program.py)
    records = our_records(
        dataset_root, "goat", tmp_path / "ours", actions, instructions, "task.program=subtask"
    )
    scored = 0
    for record in records:
        for index, subtask in enumerate(record["subtasks"]):
            assert_same(subtask, judged[(record["episode_id"], index)], judge.radius)
            scored += 1
        assert record["metrics"]["success"] == pytest.approx(
            np.mean([s["success"] for s in record["subtasks"]])
        )
    assert scored == len(judged) >= len(KINDS)
    judged_outcomes.extend(judged.values())


def test_the_trajectories_cover_success_failure_and_lenient_only_success(
    judged_outcomes: list[Judged],
) -> None:
    """Runs after the comparisons above (file order): they met a benchmark success, a benchmark failure that
    the lenient radius counts, and a failure at both radii."""
    outcomes = {(j.metrics["success"], j.lenient_success) for j in judged_outcomes}
    assert outcomes == {(1.0, 1.0), (0.0, 1.0), (0.0, 0.0)}, outcomes
