"""habitat-lab PointNav-v1: reading a split, and writing its episode records.

A PointNav-v1 split is `{split}.json.gz` plus `content/{scene}.json.gz`; each episode has start_position,
start_rotation, goals[0].position and info.geodesic_distance (habitat-lab's NavigationEpisode fields).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from tango.formats.fields import FieldError, Loaded, Quat, Vec3, parse_each, quat, require, short, text, vec3
from tango.formats.records import ROTATION_DIGITS, round_list
from tango.formats.splits import split_sources


@dataclass(frozen=True)
class PointNavEpisode:
    """One PointNav-v1 episode."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    goal_position: Vec3
    geodesic_distance: float | None
    source_file: str = ""


def _episode(raw: Any, index: int, *, file: Path) -> PointNavEpisode:
    goals = require(raw, "goals")
    if not isinstance(goals, list) or not goals:
        raise FieldError("goals", f"must be a non-empty list of goals, got {short(goals)}")
    info = raw.get("info") or {}
    if not isinstance(info, dict):
        raise FieldError("info", f"must be a JSON object, got {short(info)}")
    distance = info.get("geodesic_distance")
    if distance is not None and (isinstance(distance, bool) or not isinstance(distance, (int, float))):
        raise FieldError("info.geodesic_distance", f"must be a number, got {short(distance)}")
    return PointNavEpisode(
        episode_id=str(require(raw, "episode_id")),
        scene_id=text(require(raw, "scene_id"), "scene_id"),
        start_position=vec3(require(raw, "start_position"), "start_position"),
        start_rotation=quat(require(raw, "start_rotation"), "start_rotation"),
        goal_position=vec3(require(goals[0], "position", "goals[0]"), "goals[0].position"),
        geodesic_distance=None if distance is None else float(distance),
        source_file=str(file),
    )


def read_episodes(path: str | os.PathLike[str]) -> Loaded[PointNavEpisode]:
    """Episodes of one PointNav-v1 split (the split file or its directory), with per-episode problems."""
    _, _, sources = split_sources(path)
    loaded: Loaded[PointNavEpisode] = Loaded([])
    for file, data in sources:
        part = parse_each(file, data["episodes"], partial(_episode, file=file))
        loaded.episodes.extend(part.episodes)
        loaded.problems.extend(part.problems)
    return loaded


def load_episodes(path: str | os.PathLike[str]) -> list[PointNavEpisode]:
    """Episodes of one PointNav-v1 split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


def episode_json(
    episode_id: str,
    scene_file: str,
    start_position: Iterable[float],
    start_rotation: Iterable[float],
    goal_position: Iterable[float],
    geodesic_distance: float,
    goal_radius: float,
) -> dict[str, Any]:
    """A PointNav-v1 episode record (habitat-lab's NavigationEpisode fields)."""
    return {
        "episode_id": episode_id,
        "scene_id": scene_file,
        "start_position": round_list(start_position),
        "start_rotation": round_list(start_rotation, ROTATION_DIGITS),
        "info": {"geodesic_distance": round(geodesic_distance, 4)},
        "goals": [{"position": round_list(goal_position), "radius": goal_radius}],
        "shortest_paths": None,
        "start_room": None,
    }
