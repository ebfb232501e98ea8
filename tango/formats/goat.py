"""GOAT-Bench (multi-modal lifelong navigation): reading a split, and writing its goal and episode records.

A split (val_seen, val_seen_synonyms, val_unseen) is `{split}.json.gz` plus `content/{scene}.json.gz`; each
content file holds `episodes` and `goals`, keyed "{scene file basename}_{category}" (FORMATS.md). An episode's
`tasks` are `[category, goal_type, object_id]` or `[category, "image", object_id, image_idx]` with goal_type
object | description | image. As GOAT-Bench's own dataset class (`GoatDatasetV1.from_json`) reads them:
an object subtask is satisfied by any instance of the category (the published files give it no instance id,
`null`), a description or image subtask only by the instance named; the goals of the category's
`children_object_categories` count too; and a description subtask whose lang_desc is longer than 55 words is
dropped (counted in `filtered_subtasks`). A `description_facts.json` beside the split file (tango's synthetic
datasets write one) gives what each description states, by instance key "{scene}_{object_id}"; it is attached
to description subtasks for evaluation code (`GoatSubtask.description_facts`), never shown to the agent.
`read_episodes` returns the good episodes with a named problem per malformed one; `load_episodes` refuses the
split at the first. `image_goal_json` and `episode_json` write the records the generator adds to the
ObjectNav-v1 goal (`tango.formats.nav_episodes.goal_json`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tango.formats.fields import (
    DatasetError,
    FieldError,
    Loaded,
    Quat,
    Vec3,
    parse_each,
    quat,
    read_json,
    require,
    text,
    vec3,
)
from tango.formats.nav_episodes import (
    ObjectGoal,
    children,
    goals_key,
    rotation_warning,
    view_points,
)
from tango.formats.records import ROTATION_DIGITS, Pose, round_list, start_json
from tango.formats.splits import GoalTable, goal_table, split_sources

GOAL_TYPES = ("object", "description", "image")
MAX_DESCRIPTION_WORDS = 55
FACTS_FILE = "description_facts.json"


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
class GoatGoal(ObjectGoal):
    """An ObjectGoal with GOAT-Bench's extras: the image-goal cameras and the language description."""

    image_goals: tuple[ImageGoalParameters, ...] = ()
    lang_desc: str | None = None


@dataclass(frozen=True)
class GoatSubtask:
    """One subtask as the file names it, with the goal instances that satisfy it."""

    category: str
    goal_type: str
    object_id: int | str | None
    image_idx: int | None
    goals: tuple[GoatGoal, ...]
    description_facts: dict[str, Any] | None = None

    @property
    def target(self) -> GoatGoal | None:
        """The instance the subtask names (the only one that counts for description and image subtasks); None
        for an object subtask without an instance id, which any instance of `goals` satisfies."""
        if self.object_id is None:
            return None
        return next((g for g in self.goals if g.object_id == self.object_id), None)

    @property
    def lang_desc(self) -> str | None:
        """The description shown for a description subtask."""
        target = self.target
        return target.lang_desc if self.goal_type == "description" and target is not None else None

    @property
    def image_goal(self) -> ImageGoalParameters | None:
        """The camera of the goal image shown for an image subtask."""
        target = self.target
        if self.goal_type != "image" or self.image_idx is None or target is None:
            return None
        return target.image_goals[self.image_idx]


@dataclass(frozen=True)
class GoatEpisode:
    """A GOAT episode: a start pose and 5-10 subtasks done in sequence."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    tasks: tuple[GoatSubtask, ...]
    info: dict[str, Any] = field(default_factory=dict)
    filtered_subtasks: int = 0
    source_file: str = field(default="", compare=False)


def read_episodes(path: str | os.PathLike[str]) -> Loaded[GoatEpisode]:
    """Episodes of one GOAT-Bench split (the split file or its directory), with per-episode problems."""
    split_file, split_data, sources = split_sources(path)
    shared = split_data.get("goals", {})
    facts = _description_facts(split_file.parent / FACTS_FILE)
    loaded: Loaded[GoatEpisode] = Loaded([])
    with rotation_warning(split_file):
        for file, data in sources:
            table = GoalTable("goals", goal_table(file, data, shared, "goals"), _goal)
            part = parse_each(file, data["episodes"], partial(_episode, file=file, table=table, facts=facts))
            loaded.episodes.extend(part.episodes)
            loaded.problems.extend(part.problems)
    return loaded


def load_episodes(path: str | os.PathLike[str]) -> list[GoatEpisode]:
    """Episodes of one GOAT-Bench split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


def instance_key(scene_id: str, object_id: Any) -> str:
    """GOAT-Bench's instance key: the scene file's name without .glb/.basis, "_", the object id."""
    stem = os.path.basename(scene_id).removesuffix(".glb").removesuffix(".basis")
    return f"{stem}_{object_id}"


def _description_facts(file: Path) -> dict[str, dict[str, Any]]:
    """The description facts beside a split, by instance key (empty when the file is absent)."""
    if not file.exists():
        return {}
    data = read_json(file)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise DatasetError(file, "top level must be a JSON object of facts keyed by '{scene}_{object_id}'")
    return data


def _goal(raw: Any, name: str) -> GoatGoal:
    object_id = require(raw, "object_id", name)
    if object_id is None or isinstance(object_id, (bool, float, list, dict)):
        raise FieldError(f"{name}.object_id", f"must be an integer or a string, got {object_id!r}")
    image_goals = raw.get("image_goals") or []
    if not isinstance(image_goals, list):
        raise FieldError(f"{name}.image_goals", "must be a list")
    lang_desc = raw.get("lang_desc")
    if lang_desc is not None and not isinstance(lang_desc, str):
        raise FieldError(f"{name}.lang_desc", f"must be a string or null, got {lang_desc!r}")
    return GoatGoal(
        object_id=object_id,
        object_category=text(require(raw, "object_category", name), f"{name}.object_category"),
        position=vec3(require(raw, "position", name), f"{name}.position"),
        view_points=view_points(raw, name),
        image_goals=tuple(_image_goal(g, f"{name}.image_goals[{i}]") for i, g in enumerate(image_goals)),
        lang_desc=lang_desc,
        children_object_categories=children(raw, name),
    )


def _image_goal(raw: Any, name: str) -> ImageGoalParameters:
    dims = require(raw, "image_dimensions", name)
    if not isinstance(dims, list) or len(dims) != 2 or not all(isinstance(d, int) and d > 0 for d in dims):
        raise FieldError(f"{name}.image_dimensions", f"must be [height, width] in pixels, got {dims!r}")
    hfov = require(raw, "hfov", name)
    if isinstance(hfov, bool) or not isinstance(hfov, (int, float)) or not 0 < hfov < 180:
        raise FieldError(f"{name}.hfov", f"must be degrees in (0, 180), got {hfov!r}")
    return ImageGoalParameters(
        position=vec3(require(raw, "position", name), f"{name}.position"),
        rotation=quat(require(raw, "rotation", name), f"{name}.rotation"),
        hfov=float(hfov),
        image_dimensions=(dims[0], dims[1]),
        frame_coverage=raw.get("frame_coverage"),
        object_coverage=raw.get("object_coverage"),
    )


def _episode(
    raw: Any, index: int, *, file: Path, table: GoalTable[GoatGoal], facts: dict[str, dict[str, Any]]
) -> GoatEpisode:
    scene_id = text(require(raw, "scene_id"), "scene_id")
    raw_tasks = require(raw, "tasks")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise FieldError("tasks", "must be a non-empty list of subtasks")
    parsed = [_subtask(t, scene_id, f"tasks[{j}]", table, facts) for j, t in enumerate(raw_tasks)]
    tasks = tuple(t for t in parsed if t is not None)
    if not tasks:
        raise FieldError(
            "tasks", f"every subtask was dropped (descriptions over {MAX_DESCRIPTION_WORDS} words)"
        )
    info = raw.get("info") or {}
    if not isinstance(info, dict):
        raise FieldError("info", "must be a JSON object")
    return GoatEpisode(
        episode_id=str(raw.get("episode_id", index)),
        scene_id=scene_id,
        start_position=vec3(require(raw, "start_position"), "start_position"),
        start_rotation=quat(require(raw, "start_rotation"), "start_rotation"),
        tasks=tasks,
        info=dict(info),
        filtered_subtasks=len(parsed) - len(tasks),
        source_file=str(file),
    )


def _category_goals(scene_id: str, category: str, name: str, table: GoalTable[GoatGoal]) -> list[GoatGoal]:
    """The goals of a category, found by key or else, as GOAT-Bench looks them up, by the goals' category;
    plus those of its children_object_categories present in the scene."""
    key = goals_key(scene_id, category)
    if key not in table:
        key = next((k for k in table if _first_category(table, k) == category), key)
    try:
        goals = list(table.get(key))
    except FieldError as exc:
        raise FieldError(exc.field, f"{exc.problem} (needed by {name}, category {category!r})") from exc
    for child in goals[0].children_object_categories:
        child_key = goals_key(scene_id, child)
        if child_key in table:
            goals.extend(g for g in table.get(child_key) if g not in goals)
    return goals


def _first_category(table: GoalTable[GoatGoal], key: str) -> str | None:
    try:
        return table.get(key)[0].object_category
    except FieldError:
        return None


def _subtask(
    raw: Any, scene_id: str, name: str, table: GoalTable[GoatGoal], facts: dict[str, dict[str, Any]]
) -> GoatSubtask | None:
    """One subtask with the goals that satisfy it; None when GOAT-Bench drops it (a description too long)."""
    if not isinstance(raw, list) or len(raw) not in (3, 4) or not isinstance(raw[0], str):
        raise FieldError(name, f"must be [category, goal_type, object_id(, image_idx)], got {raw!r}")
    category, goal_type, object_id = raw[0], raw[1], raw[2]
    if goal_type not in GOAL_TYPES:
        raise FieldError(f"{name}[1]", f"goal_type {goal_type!r} is not one of {GOAL_TYPES}")
    instances = _category_goals(scene_id, category, name, table)
    if goal_type == "object":
        return GoatSubtask(category, goal_type, object_id, None, tuple(instances))
    target = [g for g in instances if g.object_id == object_id]
    if object_id is None or not target:
        raise FieldError(f"{name}[2]", f"object {object_id!r} is not a goal of category {category!r}")
    image_idx: int | None = None
    if goal_type == "image":
        if len(raw) != 4 or isinstance(raw[3], bool) or not isinstance(raw[3], int):
            raise FieldError(name, f"an image subtask needs an integer image_idx, got {raw!r}")
        image_idx = raw[3]
        if not 0 <= image_idx < len(target[0].image_goals):
            raise FieldError(f"{name}[3]", f"image_idx {image_idx} is out of range for object {object_id!r}")
    if goal_type == "description":
        desc = target[0].lang_desc
        if not desc:
            raise FieldError(
                f"{name}[2]", f"a description subtask, but object {object_id!r} has no lang_desc"
            )
        if len(desc.split(" ")) > MAX_DESCRIPTION_WORDS:
            return None
    stated = facts.get(instance_key(scene_id, object_id)) if goal_type == "description" else None
    return GoatSubtask(category, goal_type, object_id, image_idx, (target[0],), stated)


# --- writing ----------------------------------------------------------------------------------------------------


def image_goal_json(
    position: Iterable[float], rotation: Iterable[float], hfov: float, size: int, frame_coverage: float
) -> dict[str, Any]:
    """The camera of an image goal: the camera's position (not the floor's) and rotation [x, y, z, w],
    horizontal field of view in degrees, square image size in pixels and the share of the frame the object
    fills."""
    return {
        "position": round_list(position),
        "rotation": round_list(rotation, ROTATION_DIGITS),
        "hfov": hfov,
        "image_dimensions": [size, size],
        "frame_coverage": round(frame_coverage, 4),
    }


def episode_json(
    episode_id: str, scene_file: str, start: Pose, geodesic_distance: float, tasks: list[list[Any]]
) -> dict[str, Any]:
    """One GOAT episode record: start pose, the first goal's geodesic distance and its subtasks
    `[category, goal_type, object_id(, image_idx)]` (the goals live in the content file's `goals`)."""
    return {
        "episode_id": episode_id,
        "scene_id": scene_file,
        **start_json(start),
        "info": {
            "geodesic_distance": round(geodesic_distance, 4),
            "start_geodesic_distance": round(geodesic_distance, 4),
        },
        "goals": [],
        "tasks": tasks,
    }
