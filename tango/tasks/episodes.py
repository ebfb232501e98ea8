"""Episode and goal records shared by the benchmark loaders, and the file reading they have in common.

The field names are the published ones (habitat-lab ObjectNav-v1, HM3D-OVON, GOAT-Bench); see FORMATS.md.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


class DatasetError(ValueError):
    """A dataset file is missing or does not have the shape its benchmark publishes; the message names the file."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = str(path)
        self.problem = problem


@dataclass(frozen=True)
class AgentState:
    """An agent pose: position [x, y, z] and rotation quaternion [x, y, z, w]."""

    position: Vec3
    rotation: Quat


@dataclass(frozen=True)
class ViewPoint:
    """A navigable pose from which the goal object is visible, with the dataset's visibility score."""

    agent_state: AgentState
    iou: float


@dataclass(frozen=True)
class ObjectGoal:
    """One object instance that satisfies a goal, with the view points that define success around it."""

    object_id: int | str
    object_category: str
    position: Vec3
    view_points: tuple[ViewPoint, ...]
    children_object_categories: tuple[str, ...] = ()


@dataclass(frozen=True)
class NavEpisode:
    """An ObjectNav-v1 / HM3D-OVON episode; `goals` are filled from the file's goals_by_category."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    object_category: str
    info: dict[str, Any]
    goals: tuple[ObjectGoal, ...]
    shortest_paths: list[Any] | None = None
    source_file: str = field(default="", compare=False)


def goals_key(scene_id: str, category: str) -> str:
    """The goals_by_category / goals key: the scene file's basename, "_", the category.

    This is habitat-lab's rule (ObjectGoalNavEpisode.goals_key), so the real "TEEsavR23oF.basis.glb_chair" and
    our synthetic "apt_000.glb_chair" are both found from the episode's scene_id.
    """
    return f"{os.path.basename(scene_id)}_{category}"


DEFAULT_SCENE_PATH_PREFIX = "data/scene_datasets/"


def resolve_scene_path(scene_id: str, scenes_dir: str | os.PathLike[str]) -> Path:
    """The scene file of an episode's scene_id, as habitat-lab resolves it: relative to `scenes_dir`, after
    dropping a leading "data/scene_datasets/" (absolute scene ids are kept)."""
    if os.path.isabs(scene_id):
        return Path(scene_id)
    scene_id = scene_id.removeprefix(DEFAULT_SCENE_PATH_PREFIX)
    return Path(scenes_dir) / scene_id


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a .json or .json.gz file; a missing or malformed file raises DatasetError naming it."""
    p = Path(path)
    if not p.is_file():
        raise DatasetError(p, "file not found")
    try:
        if p.name.endswith(".gz"):
            with gzip.open(p, "rt", encoding="utf-8") as fh:
                return json.load(fh)
        with p.open("r", encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise DatasetError(p, f"malformed JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DatasetError(p, f"unreadable ({exc})") from exc


def require(record: dict[str, Any], key: str, path: str | os.PathLike[str], what: str) -> Any:
    """record[key], or a DatasetError naming the file, the record and the missing field."""
    if not isinstance(record, dict):
        raise DatasetError(path, f"{what} is not a JSON object")
    if key not in record:
        raise DatasetError(path, f"{what} has no field {key!r}")
    return record[key]


def vec3(value: Any, path: str | os.PathLike[str], what: str) -> Vec3:
    """A 3-vector of floats, or a DatasetError."""
    return _floats(value, 3, path, what)  # type: ignore[return-value]


def quat(value: Any, path: str | os.PathLike[str], what: str) -> Quat:
    """A quaternion [x, y, z, w] of floats, or a DatasetError."""
    return _floats(value, 4, path, what)  # type: ignore[return-value]


def _floats(value: Any, n: int, path: str | os.PathLike[str], what: str) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise DatasetError(path, f"{what} must be a list of {n} numbers, got {value!r}")
    try:
        return tuple(float(v) for v in value)
    except (TypeError, ValueError) as exc:
        raise DatasetError(path, f"{what} must be a list of {n} numbers, got {value!r}") from exc


def parse_view_point(raw: Any, path: str | os.PathLike[str], what: str) -> ViewPoint:
    """A view point `{agent_state: {position, rotation}, iou}`."""
    state = require(raw, "agent_state", path, what)
    return ViewPoint(
        agent_state=AgentState(
            position=vec3(require(state, "position", path, f"{what}.agent_state"), path, f"{what} position"),
            rotation=quat(require(state, "rotation", path, f"{what}.agent_state"), path, f"{what} rotation"),
        ),
        iou=float(raw.get("iou", 0.0) or 0.0),
    )


def parse_object_goal(raw: Any, path: str | os.PathLike[str], what: str) -> ObjectGoal:
    """An ObjectNav / OVON goal `{object_id, object_category, position, view_points, children_object_categories?}`."""
    object_id = require(raw, "object_id", path, what)
    view_points = require(raw, "view_points", path, what)
    if not isinstance(view_points, list):
        raise DatasetError(path, f"{what} view_points must be a list")
    return ObjectGoal(
        object_id=object_id,
        object_category=str(require(raw, "object_category", path, what)),
        position=vec3(require(raw, "position", path, what), path, f"{what} position"),
        view_points=tuple(
            parse_view_point(v, path, f"{what} view_points[{i}]") for i, v in enumerate(view_points)
        ),
        children_object_categories=tuple(raw.get("children_object_categories") or ()),
    )


def resolve_split_file(path: str | os.PathLike[str]) -> Path:
    """A split file path as given, or for a split directory `DIR/{split}` its `DIR/{split}/{split}.json.gz`."""
    p = Path(path)
    if p.is_dir():
        return p / f"{p.name}.json.gz"
    return p


def content_files(split_file: Path, split_data: dict[str, Any]) -> list[Path]:
    """The per-scene content files of a split, from its content_scenes_path (default habitat-lab's layout)."""
    pattern = str(split_data.get("content_scenes_path", "{data_path}/content/{scene}.json.gz"))
    data_path = str(split_file.parent)
    prefix = pattern.split("{scene}")[0].format(data_path=data_path)
    suffix = pattern.split("{scene}")[1] if "{scene}" in pattern else ".json.gz"
    directory = Path(prefix)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.name.endswith(suffix))


def require_episodes(split_file: Path, split_data: dict[str, Any], content: list[Path]) -> None:
    """Raise when a split has neither episodes of its own nor any content file (usually a wrong path)."""
    if not content and not split_data.get("episodes"):
        raise DatasetError(
            split_file, "no episodes: the split file has none and there is no content/{scene}.json.gz"
        )


def load_nav_episodes(path: str | os.PathLike[str]) -> list[NavEpisode]:
    """Load an ObjectNav-v1 style split (OVON too): `{split}.json.gz` plus `content/{scene}.json.gz`.

    Episodes may sit in the split file or the content files; goals_by_category may sit in either (HM3D puts
    them in the content files). Each episode's goals come from goals_by_category[goals_key(scene, category)].
    """
    split_file = resolve_split_file(path)
    split_data = read_json(split_file)
    if not isinstance(split_data, dict):
        raise DatasetError(split_file, "top level must be a JSON object with 'episodes'")
    shared_goals = split_data.get("goals_by_category", {})
    content = content_files(split_file, split_data)
    require_episodes(split_file, split_data, content)
    sources = [(split_file, split_data)] + [(p, read_json(p)) for p in content]
    episodes: list[NavEpisode] = []
    for file, data in sources:
        if not isinstance(data, dict):
            raise DatasetError(file, "top level must be a JSON object with 'episodes'")
        raw_episodes = require(data, "episodes", file, "the file")
        if not isinstance(raw_episodes, list):
            raise DatasetError(file, "'episodes' must be a list")
        goal_table = {**shared_goals, **data.get("goals_by_category", {})}
        parsed_goals: dict[str, tuple[ObjectGoal, ...]] = {}
        for index, raw in enumerate(raw_episodes):
            episodes.append(_nav_episode(raw, index, file, goal_table, parsed_goals))
    return episodes


def _nav_episode(
    raw: Any,
    index: int,
    file: Path,
    goal_table: dict[str, Any],
    parsed_goals: dict[str, tuple[ObjectGoal, ...]],
) -> NavEpisode:
    what = f"episode {index}"
    scene_id = str(require(raw, "scene_id", file, what))
    category = str(require(raw, "object_category", file, what))
    key = goals_key(scene_id, category)
    if key not in parsed_goals:
        if key not in goal_table:
            raise DatasetError(file, f"{what} references unknown goal key {key!r} (not in goals_by_category)")
        raw_goals = goal_table[key]
        if not isinstance(raw_goals, list) or not raw_goals:
            raise DatasetError(file, f"goals_by_category[{key!r}] must be a non-empty list")
        parsed_goals[key] = tuple(
            parse_object_goal(g, file, f"goals_by_category[{key!r}][{i}]") for i, g in enumerate(raw_goals)
        )
    info = raw.get("info") or {}
    if not isinstance(info, dict):
        raise DatasetError(file, f"{what} info must be a JSON object")
    return NavEpisode(
        episode_id=str(require(raw, "episode_id", file, what)),
        scene_id=scene_id,
        start_position=vec3(require(raw, "start_position", file, what), file, f"{what} start_position"),
        start_rotation=quat(require(raw, "start_rotation", file, what), file, f"{what} start_rotation"),
        object_category=category,
        info=dict(info),
        goals=parsed_goals[key],
        shortest_paths=raw.get("shortest_paths"),
        source_file=str(file),
    )
