"""JSON records in the published shapes: view points, goals, episode headers, and gzip JSON writing."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np

from tango.scenes.datasets.context import SceneContext, StartPose
from tango.scenes.datasets.viewpoints import ObjectView, yaw_quaternion
from tango.types.scene import SceneObject


def round_list(values: Any, digits: int = 4) -> list[float]:
    """Floats rounded for compact files."""
    return [round(float(v), digits) for v in values]


def view_point_json(view: ObjectView) -> dict[str, Any]:
    """`{agent_state: {position, rotation}, iou}` as ObjectNav-v1 writes view points."""
    return {
        "agent_state": {"position": round_list(view.position), "rotation": round_list(view.rotation, 6)},
        "iou": round(view.iou, 4),
    }


def goal_json(ctx: SceneContext, obj: SceneObject, category: str) -> dict[str, Any]:
    """An ObjectNav-v1 goal (habitat-lab ObjectGoal fields) for one instance, named by the task's category."""
    return {
        "position": round_list(obj.center),
        "radius": None,
        "object_id": obj.id,
        "object_name": f"{category}_{obj.id}",
        "object_category": category,
        "room_id": None if obj.room_id is None else str(obj.room_id),
        "room_name": obj.room,
        "view_points": [view_point_json(v) for v in ctx.views[obj.id]],
    }


def start_json(start: StartPose) -> dict[str, Any]:
    """The start_position / start_rotation fields of an episode."""
    return {
        "start_position": round_list(start.position),
        "start_rotation": round_list(yaw_quaternion(start.yaw), 6),
    }


def object_goal_episode(
    ctx: SceneContext, start: StartPose, category: str, objects: list[SceneObject], episode_id: str
) -> dict[str, Any]:
    """One ObjectNav/OVON episode record (goals are filled from goals_by_category by the loaders); `info` also
    names the start's geodesic distance to the goal set `start_geodesic_distance` (the same value HM3D calls
    `geodesic_distance`), the figure the start distance distribution is measured on."""
    closest = ctx.closest_object(np.asarray(start.position), objects)
    return {
        "episode_id": episode_id,
        "scene_id": ctx.scene_file,
        **start_json(start),
        "object_category": category,
        "info": {
            "geodesic_distance": round(start.geodesic_distance, 4),
            "start_geodesic_distance": round(start.geodesic_distance, 4),
            "euclidean_distance": round(start.euclidean_distance, 4),
            "closest_goal_object_id": closest.id,
        },
        "goals": [],
        "shortest_paths": None,
    }


def write_json_gz(path: Path, data: Any) -> None:
    """Write gzip-compressed JSON, creating parent folders (encoded in one go: json.dumps uses the C encoder,
    json.dump to a stream does not)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"))
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as fh:
        fh.write(text)


def write_json(path: Path, data: Any) -> None:
    """Write indented JSON, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
