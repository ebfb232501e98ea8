"""Navigation measures (success, SPL, soft SPL) and the pooling of GOAT-Bench subtask results.

Definitions follow habitat-lab / Anderson et al. 2018: SPL = S * l / max(p, l) with l the shortest geodesic
path length from the start and p the length the agent walked; soft SPL replaces S by the progress
max(0, 1 - d_T / d_0). Distances are geodesic to the nearest view point of a goal, computed by the simulator.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

GOAL_TYPE_KEY = "goal_type"


def success(distance_to_goal: float, success_distance: float, called_stop: bool = True) -> float:
    """1.0 when the agent stopped within `success_distance` metres (geodesic) of a view point, else 0.0."""
    return 1.0 if called_stop and distance_to_goal <= success_distance else 0.0


def spl(success_value: float, shortest_path_length: float, path_length: float) -> float:
    """Success weighted by path length: S * l / max(p, l); 0 for an episode whose start is already at the goal."""
    if shortest_path_length <= 0.0:
        return float(success_value)
    return float(success_value) * shortest_path_length / max(path_length, shortest_path_length)


def soft_spl(
    distance_to_goal: float, start_distance_to_goal: float, shortest_path_length: float, path_length: float
) -> float:
    """Progress towards the goal, max(0, 1 - d_T / d_0), weighted by l / max(p, l)."""
    if start_distance_to_goal <= 0.0:
        progress = 1.0
    else:
        progress = max(0.0, 1.0 - distance_to_goal / start_distance_to_goal)
    if shortest_path_length <= 0.0:
        return progress
    return progress * shortest_path_length / max(path_length, shortest_path_length)


def navigation_metrics(
    distance_to_goal: float,
    start_distance_to_goal: float,
    shortest_path_length: float,
    path_length: float,
    success_distance: float,
    called_stop: bool = True,
) -> dict[str, float]:
    """success, spl, soft_spl and distance_to_goal of one (sub)task, the metrics ObjectNav/OVON/GOAT report."""
    s = success(distance_to_goal, success_distance, called_stop)
    return {
        "success": s,
        "spl": spl(s, shortest_path_length, path_length),
        "soft_spl": soft_spl(distance_to_goal, start_distance_to_goal, shortest_path_length, path_length),
        "distance_to_goal": float(distance_to_goal),
    }


def _means(rows: list[dict[str, Any]]) -> dict[str, float]:
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for key, value in row.items():
            if key != GOAL_TYPE_KEY and isinstance(value, (int, float)) and not isinstance(value, bool):
                sums[key] += float(value)
                counts[key] += 1
    return {key: sums[key] / counts[key] for key in sorted(sums)}


def aggregate_subtasks(subtasks: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Pool subtasks of all episodes: counts and metric means overall and per goal type.

    Each subtask is a dict of numbers plus `goal_type` (object, description, image); GOAT-Bench reports SR and
    SPL over subtasks, not over episodes, so an episode of 10 subtasks weighs 10.
    """
    rows = list(subtasks)
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_type[str(row.get(GOAL_TYPE_KEY, "unknown"))].append(row)
    return {
        "count": len(rows),
        "metrics": _means(rows),
        "by_goal_type": {
            goal_type: {"count": len(group), "metrics": _means(group)}
            for goal_type, group in sorted(by_type.items())
        },
    }


PASS_SCORE = 0.5
PERCENT_SCORES = ("llm_match", "normalised_match")


def outcome_score(metrics: dict[str, Any]) -> float | None:
    """The score that decides whether an episode or subtask succeeded, as a fraction: `success`, else OpenEQA's
    `llm_match` (when judged), else its `normalised_match` (both 0-100); None when it has none. A case passes at
    `PASS_SCORE` or above."""
    value = metrics.get("success")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    for name in PERCENT_SCORES:
        value = metrics.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value) / 100.0
    return None
