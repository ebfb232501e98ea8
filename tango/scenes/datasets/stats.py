"""Dataset statistics to set beside the published ones: view points per goal, spacing of neighbouring view
points, start-to-goal geodesic distances and episodes per scene, for any ObjectNav / HM3D-OVON / GOAT-Bench
split our loaders read (ours or the published files).

`python -m tango.scenes stats TASK SPLIT_PATH` prints one JSON line.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import numpy as np

from tango.formats import goat, objectnav, ovon
from tango.formats.nav_episodes import ObjectGoal

TASKS = ("objectnav", "ovon", "goat")


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    array = np.asarray(values, dtype=np.float64)
    return {
        "count": int(array.size),
        "median": round(float(np.median(array)), 4),
        "mean": round(float(array.mean()), 4),
        "p10": round(float(np.percentile(array, 10)), 4),
        "p90": round(float(np.percentile(array, 90)), 4),
        "min": round(float(array.min()), 4),
        "max": round(float(array.max()), 4),
    }


def neighbour_spacing(points: np.ndarray) -> np.ndarray:
    """Each point's floor-plane distance to its nearest other point (empty for fewer than two points)."""
    if len(points) < 2:
        return np.zeros(0)
    xz = points[:, [0, 2]]
    gaps = np.linalg.norm(xz[:, None, :] - xz[None, :, :], axis=2)
    np.fill_diagonal(gaps, np.inf)
    return gaps.min(axis=1)


def split_statistics(task: str, path: str | os.PathLike[str]) -> dict[str, Any]:
    """Statistics of one split; every goal instance is counted once (by scene and object id)."""
    goals: dict[tuple[str, Any], Any] = {}
    distances: list[float] = []
    scenes: Counter[str] = Counter()
    if task == "goat":
        episodes = goat.load_episodes(path)
        for episode in episodes:
            scenes[episode.scene_id] += 1
            goals.update({(episode.scene_id, g.object_id): g for t in episode.tasks for g in t.goals})
            if "geodesic_distance" in episode.info:
                distances.append(float(episode.info["geodesic_distance"]))
    elif task in ("objectnav", "ovon"):
        loader = objectnav if task == "objectnav" else ovon
        for nav in loader.load_episodes(path):
            scenes[nav.scene_id] += 1
            goals.update({(nav.scene_id, g.object_id): g for g in nav.goals})
            if "geodesic_distance" in nav.info:
                distances.append(float(nav.info["geodesic_distance"]))
    else:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}")
    per_goal = [len(g.view_points) for g in goals.values()]
    spacing: list[float] = []
    for goal in goals.values():
        spacing.extend(neighbour_spacing(_positions(goal)).tolist())
    return {
        "task": task,
        "path": str(path),
        "episodes": sum(scenes.values()),
        "scenes": len(scenes),
        "goals": len(goals),
        "view_points_per_goal": _summary([float(n) for n in per_goal]),
        "neighbour_spacing_m": _summary(spacing),
        "start_geodesic_m": _summary(distances),
        "episodes_per_scene": _summary([float(n) for n in scenes.values()]),
    }


def _positions(goal: ObjectGoal | goat.GoatGoal) -> np.ndarray:
    return np.array([v.agent_state.position for v in goal.view_points], dtype=np.float64).reshape(-1, 3)
