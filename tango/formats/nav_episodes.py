"""The ObjectNav-v1 episode format that HM3D-OVON and GOAT-Bench build on: its episode, goal and view point
records, their reader and writer, and the split / content file reading the three share.

The field names are the published ones (habitat-lab ObjectNav-v1, HM3D-OVON, GOAT-Bench); see FORMATS.md.
The loaders' `read_episodes` returns the good episodes with one named problem per malformed episode
(`tango.formats.fields.Loaded`), and `load_episodes` refuses the whole file at the first one. The writers
(`view_point_json`, `goal_json`, `object_goal_episode_json`) give the records the generator writes.

What scoring uses is validated (positions, ids, categories); what it does not use is tolerated as habitat-lab
tolerates it. A view point's rotation is such a field: habitat-lab stores it unchecked and its measures use only
the view point's position. The published MP3D ObjectNav val_mini holds view point rotations of norm 0.98356
and 1.03734 (habitat-challenge, challenge-2021, objectgoal_mp3d/val_mini); they are normalised and counted in one
warning per split read, instead of failing the episodes that use the goal.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tango.formats.fields import (
    QUATERNION_NORM_TOLERANCE,
    FieldError,
    Loaded,
    Quat,
    Vec3,
    join,
    parse_each,
    quat,
    require,
    short,
    text,
    vec3,
)
from tango.formats.records import ROTATION_DIGITS, Pose, round_list, start_json
from tango.formats.splits import GoalTable, goal_table, split_sources

if TYPE_CHECKING:
    from tango.types.scene import SceneObject

LOG = logging.getLogger(__name__)
_NORMALISED: ContextVar[list[float] | None] = ContextVar("normalised_view_rotations", default=None)
"""The norms of the view point rotations normalised during the current split read (see rotation_warning)."""


@contextmanager
def rotation_warning(where: str | os.PathLike[str]) -> Iterator[list[float]]:
    """Collect the view point rotations normalised while reading a split and log them in one warning at the end
    (the norms found, so a reader can judge); yields the list of norms."""
    norms: list[float] = []
    token = _NORMALISED.set(norms)
    try:
        yield norms
    finally:
        _NORMALISED.reset(token)
        if norms:
            LOG.warning(
                "%s: %d view point rotation(s) were not unit quaternions (norms %.5g to %.5g); normalised, as "
                "scoring uses view point positions only and habitat-lab loads them unchecked",
                where, len(norms), min(norms), max(norms),
            )  # fmt: skip


def view_rotation(value: Any, name: str) -> Quat:
    """A view point's rotation [x, y, z, w]: four finite numbers, normalised when its norm is off by more than
    the tolerance (counted for rotation_warning); a zero quaternion, which has no direction, is refused."""
    try:
        return quat(value, name)
    except FieldError:
        q = _four_floats(value, name)
        norm = math.sqrt(sum(v * v for v in q))
        if norm < QUATERNION_NORM_TOLERANCE:
            raise FieldError(name, f"must be a rotation quaternion [x, y, z, w], got {list(q)}") from None
    norms = _NORMALISED.get()
    if norms is not None:
        norms.append(norm)
    return (q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm)


def _four_floats(value: Any, name: str) -> tuple[float, ...]:
    """Four finite numbers (FieldError otherwise), unchecked for norm."""
    numbers = (
        isinstance(value, (list, tuple))
        and len(value) == 4
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    )
    if numbers:
        return tuple(float(v) for v in value)
    raise FieldError(name, f"must be a list of 4 finite numbers, got {short(value)}")


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
    """An ObjectNav-v1 / HM3D-OVON episode. `goals` are every instance that counts: goals_by_category of the
    episode's category, plus those of its children_object_categories (HM3D-OVON's rule)."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    object_category: str
    info: dict[str, Any]
    goals: tuple[ObjectGoal, ...]
    shortest_paths: list[Any] | None = None
    children_object_categories: tuple[str, ...] = ()
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


def parse_view_point(raw: Any, name: str) -> ViewPoint:
    """A view point `{agent_state: {position, rotation}, iou}` (HM3D-OVON adds `radius`, ignored here)."""
    state = require(raw, "agent_state", name)
    iou = raw.get("iou")
    if iou is not None and (
        isinstance(iou, bool) or not isinstance(iou, (int, float)) or not math.isfinite(iou)
    ):
        raise FieldError(f"{name}.iou", f"must be a finite number or null, got {short(iou)}")
    return ViewPoint(
        agent_state=AgentState(
            position=vec3(require(state, "position", f"{name}.agent_state"), f"{name}.agent_state.position"),
            rotation=view_rotation(
                require(state, "rotation", f"{name}.agent_state"), f"{name}.agent_state.rotation"
            ),
        ),
        iou=float(iou or 0.0),
    )


def view_points(raw: Any, name: str) -> tuple[ViewPoint, ...]:
    """A goal's `view_points` list."""
    points = require(raw, "view_points", name)
    if not isinstance(points, list):
        raise FieldError(f"{name}.view_points", f"must be a list, got {short(points)}")
    return tuple(parse_view_point(v, f"{name}.view_points[{i}]") for i, v in enumerate(points))


def children(raw: Any, name: str) -> tuple[str, ...]:
    """An optional `children_object_categories` list of category names."""
    value = raw.get("children_object_categories") if isinstance(raw, dict) else None
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FieldError(
            join(name, "children_object_categories"), f"must be a list of names, got {short(value)}"
        )
    return tuple(value)


def parse_object_goal(raw: Any, name: str, object_id: Callable[[Any], int | str] = lambda v: v) -> ObjectGoal:
    """An ObjectNav / OVON goal `{object_id, object_category, position, view_points, ...}`; `object_id` maps the
    published id (HM3D-OVON publishes "..._{id}" strings and its loader keeps the number)."""
    raw_id = require(raw, "object_id", name)
    if raw_id is None or isinstance(raw_id, (bool, list, dict, float)):
        raise FieldError(f"{name}.object_id", f"must be an integer or a string, got {short(raw_id)}")
    return ObjectGoal(
        object_id=object_id(raw_id),
        object_category=text(require(raw, "object_category", name), f"{name}.object_category"),
        position=vec3(require(raw, "position", name), f"{name}.position"),
        view_points=view_points(raw, name),
        children_object_categories=children(raw, name),
    )


def read_nav_episodes(
    path: str | os.PathLike[str], object_id: Callable[[Any], int | str] = lambda v: v
) -> Loaded[NavEpisode]:
    """An ObjectNav-v1 style split (HM3D-OVON too): `{split}.json.gz` plus `content/{scene}.json.gz`.

    Episodes may sit in the split file or the content files; goals_by_category may sit in either (HM3D puts
    them in the content files). Each episode's goals are goals_by_category[goals_key(scene, category)] and, for
    each of its children_object_categories present in the scene, that category's goals (ovon's
    OVONDistanceToGoal). Without goals_by_category, an episode's own `goals` list is used (habitat-lab's
    dedup_goals reads the same).
    """
    split_file, split_data, sources = split_sources(path)
    shared = split_data.get("goals_by_category", {})
    loaded: Loaded[NavEpisode] = Loaded([])
    with rotation_warning(split_file):
        for file, data in sources:
            table = GoalTable(
                "goals_by_category",
                goal_table(file, data, shared, "goals_by_category"),
                lambda raw, name: parse_object_goal(raw, name, object_id),
            )
            part = parse_each(
                file, data["episodes"], partial(_nav_episode, file=file, table=table, object_id=object_id)
            )
            loaded.episodes.extend(part.episodes)
            loaded.problems.extend(part.problems)
    return loaded


def _nav_episode(
    raw: Any,
    index: int,
    *,
    file: Path,
    table: GoalTable[ObjectGoal],
    object_id: Callable[[Any], int | str],
) -> NavEpisode:
    scene_id = text(require(raw, "scene_id"), "scene_id")
    category = text(require(raw, "object_category"), "object_category")
    kids = children(raw, "")
    key = goals_key(scene_id, category)
    if key in table or not raw.get("goals"):
        goals = list(table.get(key))
    else:
        goals = [parse_object_goal(g, f"goals[{i}]", object_id) for i, g in enumerate(raw["goals"])]
    for child in kids:
        if goals_key(scene_id, child) in table:
            goals.extend(table.get(goals_key(scene_id, child)))
    info = raw.get("info") or {}
    if not isinstance(info, dict):
        raise FieldError("info", f"must be a JSON object, got {short(info)}")
    paths = raw.get("shortest_paths")
    if paths is not None and not isinstance(paths, list):
        raise FieldError("shortest_paths", f"must be a list or null, got {short(paths)}")
    return NavEpisode(
        episode_id=str(require(raw, "episode_id")),
        scene_id=scene_id,
        start_position=vec3(require(raw, "start_position"), "start_position"),
        start_rotation=quat(require(raw, "start_rotation"), "start_rotation"),
        object_category=category,
        info=dict(info),
        goals=tuple(goals),
        shortest_paths=paths,
        children_object_categories=kids,
        source_file=str(file),
    )


# --- writing ----------------------------------------------------------------------------------------------------


class View(Pose, Protocol):
    """A view point to write: a pose and the dataset's visibility score."""

    @property
    def iou(self) -> float: ...


class Start(Pose, Protocol):
    """An episode start to write: a pose and its geodesic and Euclidean distances to the goal set."""

    @property
    def geodesic_distance(self) -> float: ...

    @property
    def euclidean_distance(self) -> float: ...


def view_point_json(view: View) -> dict[str, Any]:
    """`{agent_state: {position, rotation}, iou}` as ObjectNav-v1 writes view points."""
    return {
        "agent_state": {
            "position": round_list(view.position),
            "rotation": round_list(view.rotation, ROTATION_DIGITS),
        },
        "iou": round(view.iou, 4),
    }


def goal_json(obj: SceneObject, category: str, views: Iterable[View]) -> dict[str, Any]:
    """An ObjectNav-v1 goal (habitat-lab ObjectGoal fields) for one instance, named by the task's category."""
    return {
        "position": round_list(obj.center),
        "radius": None,
        "object_id": obj.id,
        "object_name": f"{category}_{obj.id}",
        "object_category": category,
        "room_id": None if obj.room_id is None else str(obj.room_id),
        "room_name": obj.room,
        "view_points": [view_point_json(v) for v in views],
    }


def object_goal_episode_json(
    scene_file: str, start: Start, category: str, closest_goal_id: int, episode_id: str
) -> dict[str, Any]:
    """One ObjectNav/OVON episode record (goals are filled from goals_by_category by the loaders); `info` also
    names the start's geodesic distance to the goal set `start_geodesic_distance` (the same value HM3D calls
    `geodesic_distance`), the figure the start distance distribution is measured on."""
    return {
        "episode_id": episode_id,
        "scene_id": scene_file,
        **start_json(start),
        "object_category": category,
        "info": {
            "geodesic_distance": round(start.geodesic_distance, 4),
            "start_geodesic_distance": round(start.geodesic_distance, 4),
            "euclidean_distance": round(start.euclidean_distance, 4),
            "closest_goal_object_id": closest_goal_id,
        },
        "goals": [],
        "shortest_paths": None,
    }
