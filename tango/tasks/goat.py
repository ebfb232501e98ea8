"""GOAT-Bench (multi-modal lifelong navigation): episode loading.

A split is `{split}.json.gz` plus `content/{scene}.json.gz`; each content file holds `episodes` and `goals`,
keyed like OVON ("{scene file basename}_{category}"). An episode's `tasks` are `[category, goal_type,
object_id]` or `[category, "image", object_id, image_idx]` with goal_type object | description | image.
An object subtask is satisfied by any instance of the category; description and image subtasks by the one
instance named (FORMATS.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
