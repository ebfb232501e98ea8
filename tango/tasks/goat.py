"""GOAT-Bench (multi-modal lifelong navigation): episode loading and the episode flow.

A split is `{split}.json.gz` plus `content/{scene}.json.gz`; each content file holds `episodes` and `goals`,
keyed like OVON ("{scene file basename}_{category}"). An episode's `tasks` are `[category, goal_type,
object_id]` or `[category, "image", object_id, image_idx]` with goal_type object | description | image.
An object subtask is satisfied by any instance of the category; description and image subtasks by the one
instance named (FORMATS.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import RunResult
from tango.tasks.episodes import (
    DatasetError,
    Quat,
    Vec3,
    ViewPoint,
    content_files,
    goals_key,
    parse_view_point,
    quat,
    read_json,
    require,
    require_episodes,
    resolve_split_file,
    vec3,
)
from tango.tasks.flow import EpisodeRun, HabitatFlow, NavTaskConfig, episode_result, run_failure
from tango.tasks.habitat_runner import HabitatTask
from tango.tasks.measures import aggregate_subtasks
from tango.tasks.objectnav import object_instruction
from tango.tasks.registry import register_task

GOAL_TYPES = ("object", "description", "image")


@dataclass(frozen=True)
class ImageGoalParameters:
    """The camera that renders an image goal: pose, horizontal field of view (deg) and [height, width]."""

    position: Vec3
    rotation: Quat
    hfov: float
    image_dimensions: tuple[int, int]
    frame_coverage: float | None = None
    object_coverage: float | None = None


@dataclass(frozen=True)
class GoatGoal:
    """One goal instance: position, view points, image-goal cameras and language description."""

    object_id: int | str
    object_category: str
    position: Vec3
    view_points: tuple[ViewPoint, ...]
    image_goals: tuple[ImageGoalParameters, ...] = ()
    lang_desc: str | None = None
    children_object_categories: tuple[str, ...] = ()


@dataclass(frozen=True)
class GoatSubtask:
    """One subtask as the file names it, with the goal instances that satisfy it."""

    category: str
    goal_type: str
    object_id: int | str
    image_idx: int | None
    goals: tuple[GoatGoal, ...]

    @property
    def target(self) -> GoatGoal:
        """The instance the subtask names (for description and image subtasks, the only one that counts)."""
        return next(g for g in self.goals if g.object_id == self.object_id)

    @property
    def lang_desc(self) -> str | None:
        """The description shown for a description subtask."""
        return self.target.lang_desc if self.goal_type == "description" else None

    @property
    def image_goal(self) -> ImageGoalParameters | None:
        """The camera of the goal image shown for an image subtask."""
        if self.goal_type != "image" or self.image_idx is None:
            return None
        return self.target.image_goals[self.image_idx]


@dataclass(frozen=True)
class GoatEpisode:
    """A GOAT episode: a start pose and 5-10 subtasks done in sequence."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    tasks: tuple[GoatSubtask, ...]
    info: dict[str, Any] = field(default_factory=dict)
    source_file: str = field(default="", compare=False)


def load_episodes(path: str | os.PathLike[str]) -> list[GoatEpisode]:
    """Episodes of one GOAT-Bench split: the split file (or its directory) and its content files."""
    split_file = resolve_split_file(path)
    split_data = read_json(split_file)
    if not isinstance(split_data, dict):
        raise DatasetError(split_file, "top level must be a JSON object with 'episodes'")
    content = content_files(split_file, split_data)
    require_episodes(split_file, split_data, content)
    episodes: list[GoatEpisode] = []
    for file in [split_file, *content]:
        data = split_data if file == split_file else read_json(file)
        if not isinstance(data, dict):
            raise DatasetError(file, "top level must be a JSON object with 'episodes'")
        raw_episodes = require(data, "episodes", file, "the file")
        if not isinstance(raw_episodes, list):
            raise DatasetError(file, "'episodes' must be a list")
        goals = _GoalTable(file, {**split_data.get("goals", {}), **data.get("goals", {})})
        episodes.extend(_episode(raw, i, file, goals) for i, raw in enumerate(raw_episodes))
    return episodes


class _GoalTable:
    """The file's `goals` dict, parsed on first use per key."""

    def __init__(self, file: Path, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise DatasetError(file, "'goals' must be a JSON object")
        self._file = file
        self._raw = raw
        self._parsed: dict[str, tuple[GoatGoal, ...]] = {}

    def get(self, key: str, what: str) -> tuple[GoatGoal, ...]:
        if key not in self._parsed:
            if key not in self._raw:
                raise DatasetError(self._file, f"{what} references unknown goal key {key!r} (not in goals)")
            raw_goals = self._raw[key]
            if not isinstance(raw_goals, list) or not raw_goals:
                raise DatasetError(self._file, f"goals[{key!r}] must be a non-empty list")
            self._parsed[key] = tuple(
                _goal(g, self._file, f"goals[{key!r}][{i}]") for i, g in enumerate(raw_goals)
            )
        return self._parsed[key]


def _goal(raw: Any, file: Path, what: str) -> GoatGoal:
    view_points = require(raw, "view_points", file, what)
    if not isinstance(view_points, list):
        raise DatasetError(file, f"{what} view_points must be a list")
    image_goals = raw.get("image_goals") or []
    return GoatGoal(
        object_id=require(raw, "object_id", file, what),
        object_category=str(require(raw, "object_category", file, what)),
        position=vec3(require(raw, "position", file, what), file, f"{what} position"),
        view_points=tuple(
            parse_view_point(v, file, f"{what} view_points[{i}]") for i, v in enumerate(view_points)
        ),
        image_goals=tuple(
            _image_goal(g, file, f"{what} image_goals[{i}]") for i, g in enumerate(image_goals)
        ),
        lang_desc=raw.get("lang_desc"),
        children_object_categories=tuple(raw.get("children_object_categories") or ()),
    )


def _image_goal(raw: Any, file: Path, what: str) -> ImageGoalParameters:
    dims = require(raw, "image_dimensions", file, what)
    if not isinstance(dims, list) or len(dims) != 2:
        raise DatasetError(file, f"{what} image_dimensions must be [height, width]")
    return ImageGoalParameters(
        position=vec3(require(raw, "position", file, what), file, f"{what} position"),
        rotation=quat(require(raw, "rotation", file, what), file, f"{what} rotation"),
        hfov=float(require(raw, "hfov", file, what)),
        image_dimensions=(int(dims[0]), int(dims[1])),
        frame_coverage=raw.get("frame_coverage"),
        object_coverage=raw.get("object_coverage"),
    )


def _episode(raw: Any, index: int, file: Path, goals: _GoalTable) -> GoatEpisode:
    what = f"episode {index}"
    scene_id = str(require(raw, "scene_id", file, what))
    raw_tasks = require(raw, "tasks", file, what)
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise DatasetError(file, f"{what} tasks must be a non-empty list")
    tasks = tuple(_subtask(t, scene_id, file, f"{what} task {j}", goals) for j, t in enumerate(raw_tasks))
    return GoatEpisode(
        episode_id=str(raw.get("episode_id", index)),
        scene_id=scene_id,
        start_position=vec3(require(raw, "start_position", file, what), file, f"{what} start_position"),
        start_rotation=quat(require(raw, "start_rotation", file, what), file, f"{what} start_rotation"),
        tasks=tasks,
        info=dict(raw.get("info") or {}),
        source_file=str(file),
    )


def _subtask(raw: Any, scene_id: str, file: Path, what: str, goals: _GoalTable) -> GoatSubtask:
    if not isinstance(raw, list) or len(raw) not in (3, 4):
        raise DatasetError(file, f"{what} must be [category, goal_type, object_id(, image_idx)], got {raw!r}")
    category, goal_type, object_id = str(raw[0]), str(raw[1]), raw[2]
    if goal_type not in GOAL_TYPES:
        raise DatasetError(file, f"{what} has goal_type {goal_type!r}; expected one of {GOAL_TYPES}")
    instances = goals.get(goals_key(scene_id, category), what)
    target = [g for g in instances if g.object_id == object_id]
    if not target:
        raise DatasetError(file, f"{what} references unknown object {object_id!r} of category {category!r}")
    image_idx: int | None = None
    if goal_type == "image":
        if len(raw) != 4:
            raise DatasetError(file, f"{what} is an image subtask without image_idx")
        image_idx = int(raw[3])
        if not 0 <= image_idx < len(target[0].image_goals):
            raise DatasetError(file, f"{what} image_idx {image_idx} is out of range for object {object_id!r}")
    if goal_type == "description" and not target[0].lang_desc:
        raise DatasetError(file, f"{what} is a description subtask but object {object_id!r} has no lang_desc")
    chosen = instances if goal_type == "object" else tuple(target)
    return GoatSubtask(
        category=category, goal_type=goal_type, object_id=object_id, image_idx=image_idx, goals=chosen
    )


# --- the GOAT flow ----------------------------------------------------------------------------------------------

GOAL_PHRASES = {
    "description": "Find the object described in goal_description.",
    "image": "Find the object shown in goal_image.",
}
POOLED_METRICS = ("success", "spl", "soft_spl", "distance_to_goal")


@dataclass
class GoatTaskConfig(NavTaskConfig):
    """configs/task/goat.yaml; `max_steps` is per subtask."""

    name: str = "goat"
    plugin: str = "tango.tasks.goat:GoatTask"
    split: str = "val_unseen"


def subtask_instruction(subtask: GoatSubtask) -> str:
    """What GOAT hands the agent for one subtask: the category name, or a pointer to the bound goal input."""
    return GOAL_PHRASES.get(subtask.goal_type, object_instruction(subtask.category, "the"))


class GoatFlow(HabitatFlow):
    """Subtasks in sequence from where the previous one ended, one program each, with the agent's maps and
    memory kept; each subtask is scored at its first stop and its SPL restarts."""

    schema = GoatTaskConfig
    data_file = "goat/{split}/{split}.json.gz"
    task: NavTaskConfig

    def load(self, path: Path) -> Sequence[GoatEpisode]:
        return load_episodes(path)

    def spec(self, episode: GoatEpisode) -> EpisodeSpec:
        phrases = [subtask_instruction(s) for s in episode.tasks]
        instruction = phrases[0].rstrip(".")
        instruction += "".join(f", then {p[0].lower()}{p[1:].rstrip('.')}" for p in phrases[1:]) + "."
        types = tuple(s.goal_type for s in episode.tasks)
        return EpisodeSpec(str(episode.episode_id), episode.scene_id, instruction, episode, types)

    def goal_inputs(self, subtask: GoatSubtask, run: EpisodeRun) -> dict[str, Any]:
        """`goal_image` / `goal_description` as GOAT gives them: a render from the stored pose, the lang_desc."""
        inputs: dict[str, Any] = {"goal_image": None, "goal_description": None}
        goal = next(
            (g for g in subtask.goals if str(g.object_id) == str(subtask.object_id)), subtask.goals[0]
        )
        if subtask.goal_type == "description":
            inputs["goal_description"] = goal.lang_desc or ""
        elif subtask.goal_type == "image":
            camera = goal.image_goals[subtask.image_idx or 0]
            inputs["goal_image"] = run.render_goal(camera.position, camera.rotation)
        return inputs

    def run(self, spec: EpisodeSpec, run: EpisodeRun) -> EpisodeResult:
        episode: GoatEpisode = spec.payload
        run.start(episode.scene_id, episode.start_position, episode.start_rotation)
        subtasks: list[dict[str, Any]] = []
        records: list[GenerationRecord] = []
        runs: list[RunResult | None] = []
        total_steps = 0
        for index, subtask in enumerate(episode.tasks):
            run.begin_subtask(self.goal_inputs(subtask, run), first=index == 0)
            goals = [vp.agent_state.position for goal in subtask.goals for vp in goal.view_points]
            start_distance = run.geodesic_distance(run.position(), goals)
            walked_before = run.path_length
            instruction = subtask_instruction(subtask)
            run.trace("subtask", index=index, goal_type=subtask.goal_type, instruction=instruction)
            record = run.program(instruction)
            runs.append(run.execute(record, stop_when_done=True))
            metrics = run.score_stop(goals, start_distance, walked_before, self.task.success_distance)
            subtasks.append({"goal_type": subtask.goal_type, **metrics, "num_steps": run.steps})
            records.append(record)
            total_steps += run.steps
        run.finish([goal.position for subtask in episode.tasks for goal in subtask.goals])
        return self._result(spec, episode, subtasks, records, runs, total_steps)

    def _result(
        self,
        spec: EpisodeSpec,
        episode: GoatEpisode,
        subtasks: list[dict[str, Any]],
        records: list[GenerationRecord],
        runs: list[RunResult | None],
        total_steps: int,
    ) -> EpisodeResult:
        """Metrics pooled over subtasks, every subtask's program and generation record."""
        pooled = aggregate_subtasks(subtasks)["metrics"]
        metrics = {key: pooled[key] for key in POOLED_METRICS if key in pooled}
        result = episode_result(spec.instruction, records[0], runs, metrics, total_steps)
        result.program = "\n".join(
            f"# subtask {i} ({s.goal_type}): {subtask_instruction(s)}\n{r.program or ''}"
            for i, (s, r) in enumerate(zip(episode.tasks, records))
        )
        result.generation = {"subtasks": [r.to_dict() for r in records]}
        result.subtasks = subtasks
        failures = [r.failure_reason for r in records if r.failure_reason]
        result.failure_reason = failures[0] if failures else run_failure(runs)
        return result


class GoatTask(HabitatTask):
    """The GOAT-Bench harness plugin."""

    flow = GoatFlow


register_task("goat", GoatTaskConfig)
