"""The Habitat task plugin end to end on a tiny synthetic dataset: episode lists, the results contract, metrics,
what the agent is given (no privileged information), measures wiring and failure paths.

Every run goes through `tango.harness.run.run_evaluation` with the config `python -m tango.eval` composes
(embedded simulator, oracle perception, template generator, fmm controller unless a test overrides one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tango.agent.habitat_agent import HabitatAgent
from tango.formats import goat
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.run import run_evaluation
from tango.perception.oracle.image_goal import OracleImageMatcher
from tango.perception.oracle.scene import load_oracle_scene
from tango.primitives.context import AgentContext
from tango.programs.interpreter import RunResult
from tango.sim.follower import OracleGeodesicFollower
from tango.tasks.habitat.plugin import HabitatTask
from tango.tasks.habitat.runner import HabitatRunner
from tango.tasks.objectnav import ObjectNavTask
from tango.types.goals import GoalImage
from tests.agent.synthetic import TaskWrapper, eval_config, plugin, read_jsonl

NAV_TASKS = ("objectnav", "ovon", "goat")
ALL_TASKS = (*NAV_TASKS, "openeqa")
CONTRACT_FIELDS = ("episode_id", "task", "scene_id", "instruction", "program", "program_source", "metrics",
                   "num_steps", "failure_reason", "trace_path")  # fmt: skip
STEP_LIMITS = {"objectnav": 150, "ovon": 150, "goat": 180, "openeqa": 150}
"""Step budgets per episode; GOAT's is shared by its 3 subtasks (60 each when each subtask had its own)."""
GOAT_MODES = ("episode", "subtask")
BENCHMARK_RADII = {"objectnav": 0.1, "ovon": 0.25, "goat": 0.25}


class RecordingTask(TaskWrapper):
    """A task's plugin whose runners record the inputs bound for each program and the spec of each episode."""

    def __init__(self, task: HabitatTask) -> None:
        super().__init__(task)
        self.inputs: list[dict[str, Any]] = []
        self.specs: list[EpisodeSpec] = []

    def make_runner(self, cfg: dict[str, Any]) -> HabitatRunner:
        runner = self.task.make_runner(cfg)
        run_program = runner.interpreter.run
        run_episode = runner.run

        def recording_program(program: Any, ctx: AgentContext) -> RunResult:
            self.inputs.append(dict(ctx.inputs))
            return run_program(program, ctx)

        def recording_episode(spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
            self.specs.append(spec)
            return run_episode(spec, ctx)

        runner.interpreter.run = recording_program  # type: ignore[method-assign]
        runner.run = recording_episode  # type: ignore[method-assign]
        return runner


class TaskRun:
    """One finished run: its records, summary, the plugin that ran it and the config."""

    def __init__(self, run_dir: Path, plugin: RecordingTask, config: dict[str, Any]) -> None:
        self.run_dir = run_dir
        self.plugin = plugin
        self.config = config
        self.records = read_jsonl(run_dir / "episodes.jsonl")
        self.summary = json.loads((run_dir / "summary.json").read_text())

    def trace(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        return read_jsonl(self.run_dir / record["trace_path"])


@pytest.fixture(scope="module")
def task_run(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., TaskRun]:
    """Runs each task once (one episode, default config, a step cap for speed) on first use in this module;
    extra overrides make another run (e.g. GOAT with `task.program=subtask`)."""
    runs: dict[tuple[str, ...], TaskRun] = {}

    def run(task: str, *overrides: str) -> TaskRun:
        key = (task, *overrides)
        if key not in runs:
            out = tmp_path_factory.mktemp(f"run_{task}")
            config = eval_config(
                dataset_root,
                task,
                out,
                "eval.num_episodes=1",
                f"task.max_steps={STEP_LIMITS[task]}",
                *overrides,
            )
            recording = RecordingTask(plugin(task))
            run_evaluation(config, plugin=recording)
            runs[key] = TaskRun(out, recording, config)
        return runs[key]

    return run


def _config(root: Path, task: str, out: Path, *overrides: str) -> dict[str, Any]:
    return eval_config(root, task, out, *overrides)


# --- episode lists and the results contract ------------------------------------------------------------------


@pytest.mark.parametrize("task", ALL_TASKS)
def test_plugin_lists_episodes_with_unique_ids(task: str, dataset_root: Path, tmp_path: Path) -> None:
    specs = plugin(task).list_episodes(_config(dataset_root, task, tmp_path))
    assert specs, f"{task}: no episodes listed"
    ids = [s.episode_id for s in specs]
    assert len(set(ids)) == len(ids)
    assert all(s.instruction.strip() and s.scene_id for s in specs)
    assert specs == plugin(task).list_episodes(_config(dataset_root, task, tmp_path))


@pytest.mark.parametrize("task", ALL_TASKS)
def test_run_writes_the_contract_fields(task: str, task_run: Callable[..., TaskRun]) -> None:
    run = task_run(task)
    (record,) = run.records
    for key in CONTRACT_FIELDS:
        assert key in record, f"{task}: episodes.jsonl lacks {key}"
    assert record["task"] == task
    assert record["program_source"] == "template" and record["program"].strip()
    assert record["failure_reason"] is None, record["failure_reason"]
    assert isinstance(record["num_steps"], int) and 0 < record["num_steps"]
    assert (run.run_dir / record["trace_path"]).is_file()
    assert run.summary["complete"] is True
    spec = run.plugin.specs[0]
    assert (record["episode_id"], record["scene_id"], record["instruction"]) == (
        spec.episode_id, spec.scene_id, spec.instruction
    )  # fmt: skip


@pytest.mark.parametrize("task", ALL_TASKS)
def test_results_describe_perception_generator_controller_and_sensors(
    task: str, task_run: Callable[..., TaskRun]
) -> None:
    run = task_run(task)
    (record,) = run.records
    camera = {"preset": "fast", "width": 256, "height": 256, "hfov": 79.0, "camera_height": 0.88}
    assert record["sensors"] == run.summary["sensors"] == camera
    assert run.summary["sensor_presets"] == ["fast"]
    assert record["perception"]["name"] == "oracle"
    assert "detector" in record["perception"]["oracle_components"]
    assert record["generator"]["name"] == "template"
    assert record["controller"]["name"] == "fmm"
    if task in NAV_TASKS:
        run = task_run(task)
        for result in (record, run.summary):
            assert (
                result["success_distance"] == run.config["task"]["success_distance"] == BENCHMARK_RADII[task]
            )
            assert result["distance_to"] == "VIEW_POINTS" and "view point" in result["distance_definition"]
            assert result["lenient_success_distance"] == 1.0 and result["scoring_source"]


@pytest.mark.parametrize("task", ("objectnav", "ovon"))
def test_object_goal_metrics_are_sane(task: str, task_run: Callable[..., TaskRun]) -> None:
    (record,) = task_run(task).records
    _check_navigation_metrics(record["metrics"], record["success_distance"])


@pytest.mark.parametrize("mode", GOAT_MODES)
def test_goat_has_one_scored_subtask_per_task_with_its_goal_type(
    mode: str, task_run: Callable[..., TaskRun]
) -> None:
    run = task_run("goat", f"task.program={mode}")
    (record,) = run.records
    episode = run.plugin.specs[0].payload
    assert isinstance(episode, goat.GoatEpisode)
    assert [s["goal_type"] for s in record["subtasks"]] == [t.goal_type for t in episode.tasks]
    for subtask in record["subtasks"]:
        _check_navigation_metrics(subtask, record["success_distance"])
        assert 0 <= subtask["num_steps"] <= STEP_LIMITS["goat"]
        assert subtask["attempted"] in (0.0, 1.0)
    mean_success = np.mean([s["success"] for s in record["subtasks"]])
    assert record["metrics"]["success"] == pytest.approx(mean_success)
    assert record["num_steps"] == sum(s["num_steps"] for s in record["subtasks"])
    assert set(run.summary["subtasks"]["by_goal_type"]) == {t.goal_type for t in episode.tasks}
    generations = [e for e in run.trace(record) if e["event"] == "generation"]
    assert len(generations) == (1 if mode == "episode" else len(episode.tasks))
    searches = [e["count"] for e in run.trace(record) if e["event"] == "memory_searches"]
    assert searches == [0], "the oracle memory names objects; it never sends explore_scene() to a place"
    if mode == "episode":
        assert generations[0]["instruction"] == record["instruction"] == run.plugin.specs[0].instruction


def test_openeqa_reports_a_normalised_match_score(task_run: Callable[..., TaskRun]) -> None:
    run = task_run("openeqa")
    (record,) = run.records
    assert 0.0 <= record["metrics"]["normalised_match"] <= 100.0
    assert "llm_match" not in record["metrics"]
    assert record["instruction"] == run.plugin.specs[0].payload.question
    assert record["extra"]["reference"] == run.plugin.specs[0].payload.answer


def _check_navigation_metrics(metrics: dict[str, Any], success_distance: float) -> None:
    assert metrics["success"] in (0.0, 1.0)
    assert 0.0 <= metrics["spl"] <= metrics["success"]
    assert 0.0 <= metrics["soft_spl"] <= 1.0
    assert metrics["distance_to_goal"] >= 0.0
    assert metrics["called_stop"] in (0.0, 1.0)
    stopped = bool(metrics["called_stop"])
    assert metrics["success"] == float(stopped and metrics["distance_to_goal"] < success_distance)
    assert metrics["lenient_success"] == float(stopped and metrics["distance_to_goal"] < 1.0)
    assert metrics["lenient_success"] >= metrics["success"] and metrics["lenient_spl"] >= metrics["spl"]
    assert metrics["path_length"] >= 0.0


# --- no privileged information ---------------------------------------------------------------------------------


def test_objectnav_instruction_names_only_the_category(task_run: Callable[..., TaskRun]) -> None:
    run = task_run("objectnav")
    episode = run.plugin.specs[0].payload
    instruction = run.records[0]["instruction"]
    words = re.findall(r"[a-z]+", instruction.lower().replace(episode.object_category.lower(), " "))
    assert episode.object_category in instruction
    assert set(words) <= {"find", "a", "an", "the"}
    assert not re.search(r"\d", instruction)


@pytest.mark.parametrize("mode", GOAT_MODES)
def test_goat_image_and_description_subtasks_do_not_name_their_goal(
    mode: str, task_run: Callable[..., TaskRun]
) -> None:
    run = task_run("goat", f"task.program={mode}")
    (record,) = run.records
    episode = run.plugin.specs[0].payload
    generations = [e for e in run.trace(record) if e["event"] == "generation"]
    named = {t.category for t in episode.tasks if t.goal_type == "object"}
    hidden = [t for t in episode.tasks if t.goal_type in ("image", "description")]
    assert {t.goal_type for t in hidden} == {"image", "description"}, "the tiny dataset needs both goal types"
    texts = [text for g in generations for text in (g["instruction"], g["program"])]
    for subtask in hidden:
        for text in texts:
            if subtask.category not in named:
                assert not re.search(rf"\b{re.escape(subtask.category)}\b", text, re.IGNORECASE), text
            assert not re.search(rf"\b{re.escape(str(subtask.object_id))}\b", text), text
    if mode == "episode":
        (instruction,) = [g["instruction"] for g in generations]
        assert "goal_images[0]" in instruction and "goal_descriptions[0]" in instruction


def test_goat_goal_inputs_per_subtask_are_a_render_of_the_goal_and_its_description(
    task_run: Callable[..., TaskRun],
) -> None:
    run = task_run("goat", "task.program=subtask")
    episode = run.plugin.specs[0].payload
    assert len(run.plugin.inputs) == len(episode.tasks)
    for subtask, inputs in zip(episode.tasks, run.plugin.inputs):
        if subtask.goal_type == "object":
            assert inputs["goal_image"] is None and inputs["goal_description"] is None
        elif subtask.goal_type == "description":
            assert inputs["goal_image"] is None
            assert inputs["goal_description"] == subtask.lang_desc and subtask.lang_desc
        else:
            assert inputs["goal_description"] is None
            _check_goal_image(inputs["goal_image"], subtask)


def test_goat_episode_program_gets_every_goal_input_by_index(task_run: Callable[..., TaskRun]) -> None:
    run = task_run("goat", "task.program=episode")
    episode = run.plugin.specs[0].payload
    (inputs,) = run.plugin.inputs
    assert inputs["goal_image"] is None and inputs["goal_description"] is None
    images = [t for t in episode.tasks if t.goal_type == "image"]
    descriptions = [t for t in episode.tasks if t.goal_type == "description"]
    assert inputs["goal_descriptions"] == [t.lang_desc for t in descriptions]
    assert len(inputs["goal_images"]) == len(images)
    for subtask, image in zip(images, inputs["goal_images"]):
        _check_goal_image(image, subtask)


def _check_goal_image(image: Any, subtask: goat.GoatSubtask) -> None:
    assert isinstance(image, GoalImage)
    pixels = image.pixels
    assert pixels.ndim == 3 and pixels.shape[2] == 3 and pixels.dtype == np.uint8
    assert pixels.std() > 5
    assert subtask.image_goal is not None and image.hfov_deg == pytest.approx(subtask.image_goal.hfov)


def test_goat_goal_image_shows_the_goal_instance(
    dataset_root: Path, task_run: Callable[..., TaskRun]
) -> None:
    run = task_run("goat", "task.program=subtask")
    episode = run.plugin.specs[0].payload
    runner = plugin("goat").make_runner(run.config)
    try:
        runner.session.start(dataset_root / "scenes" / episode.scene_id, episode.start_position,
                             episode.start_rotation)  # fmt: skip
        scene = load_oracle_scene(
            dataset_root / "scenes" / episode.scene_id.replace(".glb", ".annotations.json")
        )
        camera_height = runner.sim_config.camera_height
        for subtask, inputs in zip(episode.tasks, run.plugin.inputs):
            if subtask.goal_type != "image":
                continue
            params = subtask.image_goal
            floor = np.asarray(params.position, dtype=np.float64) - [0.0, camera_height, 0.0]
            x, y, z, w = params.rotation
            import quaternion

            frame = runner.session.simulator.get_observations_at(
                list(floor), quaternion.quaternion(w, x, y, z), False
            )
            semantic = np.asarray(frame["semantic"]).reshape(frame["depth"].shape[:2])
            assert (semantic == int(subtask.object_id)).mean() > 0.01
            picture = inputs["goal_image"]
            assert np.array_equal(np.asarray(frame["rgb"])[..., :3], picture.pixels)
            named = OracleImageMatcher(min_pixels=1).goal_instance(
                picture.semantic, picture.camera_pose, scene
            )
            assert named == int(
                subtask.object_id
            )  # the picture's pose reaches the oracle, which names the goal
    finally:
        runner.close()


# --- measures wiring --------------------------------------------------------------------------------------------


def _replay_file(path: Path, programs: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"instruction": i, "program": p}) + "\n" for i, p in programs.items()))
    return path


def test_stopping_at_the_start_far_from_the_goal_fails(dataset_root: Path, tmp_path: Path) -> None:
    specs = plugin("objectnav").list_episodes(_config(dataset_root, "objectnav", tmp_path))
    replay = _replay_file(tmp_path / "stop.jsonl", {s.instruction: "stop()" for s in specs})
    out = tmp_path / "run"
    config = _config(dataset_root, "objectnav", out, "generator=replay", f"generator.replay_path={replay}")
    run_evaluation(config)
    records = read_jsonl(out / "episodes.jsonl")
    assert len(records) == len(specs)
    far = [r for r in records if r["metrics"]["distance_to_goal"] > r["success_distance"]]
    assert far, "every start is within the success distance: the test needs a farther one"
    for record in records:
        assert record["failure_reason"] is None and record["num_steps"] == 0
        assert record["metrics"]["path_length"] == 0.0
        assert record["metrics"]["success"] == float(
            record["metrics"]["distance_to_goal"] < record["success_distance"]
        )
    assert all(r["metrics"]["success"] == 0.0 and r["metrics"]["spl"] == 0.0 for r in far)


class FollowerTask(ObjectNavTask):
    """Before the (replayed `stop()`) program runs, drive the session along the oracle geodesic path."""

    def __init__(self) -> None:
        super().__init__()
        self.forward_moves = 0

    def make_runner(self, cfg: dict[str, Any]) -> HabitatRunner:
        runner = super().make_runner(cfg)
        run_program = runner.interpreter.run
        run_episode = runner.run
        goals: list[Any] = []

        def follow_then_run(program: Any, ctx: AgentContext) -> RunResult:
            assert isinstance(ctx.agent, HabitatAgent)
            session = ctx.agent.session
            follower = OracleGeodesicFollower(
                session.simulator, goals, stop_distance=0.5 * runner.flow.task.success_distance
            )
            for _ in range(400):
                action = follower.next_action()
                if action == "stop":
                    break
                self.forward_moves += action == "move_forward"
                session.step(action)
            return run_program(program, ctx)

        def remember_goals(spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
            goals[:] = [vp.agent_state.position for goal in spec.payload.goals for vp in goal.view_points]
            return run_episode(spec, ctx)

        runner.interpreter.run = follow_then_run  # type: ignore[method-assign]
        runner.run = remember_goals  # type: ignore[method-assign]
        return runner


def test_oracle_follower_to_a_view_point_then_stop_succeeds(dataset_root: Path, tmp_path: Path) -> None:
    specs = plugin("objectnav").list_episodes(_config(dataset_root, "objectnav", tmp_path))
    replay = _replay_file(tmp_path / "stop.jsonl", {s.instruction: "stop()" for s in specs})
    out = tmp_path / "run"
    config = _config(
        dataset_root,
        "objectnav",
        out,
        "eval.num_episodes=1",
        "generator=replay",
        f"generator.replay_path={replay}",
    )
    follower = FollowerTask()
    run_evaluation(config, plugin=follower)
    (record,) = read_jsonl(out / "episodes.jsonl")
    metrics = record["metrics"]
    assert follower.forward_moves > 0
    assert metrics["success"] == 1.0
    assert metrics["distance_to_goal"] <= 0.5 * record["success_distance"] + 0.1
    assert metrics["path_length"] == pytest.approx(0.25 * follower.forward_moves, abs=0.3)
    assert 0.5 < metrics["spl"] <= 1.0
    assert metrics["soft_spl"] > 0.5


# --- failure paths ----------------------------------------------------------------------------------------------


def test_a_primitive_that_raises_is_recorded_and_the_run_continues(
    dataset_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_detect(self: HabitatAgent, label: str) -> list[Any]:
        raise RuntimeError("detector exploded")

    monkeypatch.setattr(HabitatAgent, "detect", broken_detect)
    out = tmp_path / "run"
    run_evaluation(_config(dataset_root, "ovon", out, "eval.num_episodes=2", "task.max_steps=100"))
    records = read_jsonl(out / "episodes.jsonl")
    assert len(records) == 2
    for record in records:
        assert record["failure_reason"] and "detector exploded" in record["failure_reason"]
        assert record["metrics"]["success"] == 0.0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True


def test_an_invalid_replayed_program_is_a_failure_reason(dataset_root: Path, tmp_path: Path) -> None:
    specs = plugin("objectnav").list_episodes(_config(dataset_root, "objectnav", tmp_path))
    replay = _replay_file(tmp_path / "bad.jsonl", {s.instruction: "import os\nstop()" for s in specs})
    out = tmp_path / "run"
    run_evaluation(
        _config(dataset_root, "objectnav", out, "generator=replay", f"generator.replay_path={replay}")
    )
    records = read_jsonl(out / "episodes.jsonl")
    assert len(records) == len(specs)
    for record in records:
        assert record["failure_reason"] and "invalid" in record["failure_reason"]
        assert record["metrics"]["success"] == 0.0 and record["num_steps"] == 0
