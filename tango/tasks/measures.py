"""Navigation measures (success, SPL, soft SPL) and the pooling of GOAT-Bench subtask results.

Definitions follow habitat-lab's `Success`, `SPL` and `SoftSPL` (habitat/tasks/nav/nav.py; Anderson et al.
2018): success is a stop strictly closer than the success distance; SPL = S * l / max(p, l) with l the distance
to the goal at the start and p the length the agent walked; soft SPL replaces S by the progress
max(0, 1 - d_T / d_0). Distances are geodesic, to what the task's `distance_to` names (habitat-lab's
DistanceToGoal: VIEW_POINTS or POINT), computed by the simulator. tests/tasks/test_measures_match_habitat_lab.py
drives the same trajectories through habitat-lab's own measures and these.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

GOAL_TYPE_KEY = "goal_type"
DISTANCE_DEFINITIONS = {
    "VIEW_POINTS": "geodesic distance from the agent to the nearest view point of any goal instance",
    "POINT": "geodesic distance from the agent to the nearest goal instance's position",
}
"""habitat-lab's DistanceToGoal `distance_to` values and what each measures."""
SCORING_KEYS = ("success_distance", "distance_to", "lenient_success_distance", "scoring_source")
"""The task config keys that say how a run was scored (copied into every record and summary.json)."""


def scoring_rules(task: Mapping[str, Any] | None) -> dict[str, Any]:
    """How a run is scored, from its `task` config: the success radius, the distance definition (name and
    words), the lenient radius of the second figure and the benchmark file the rules come from."""
    task = task or {}
    rules = {key: task.get(key) for key in SCORING_KEYS if key in task or key == "success_distance"}
    if task.get("distance_to") in DISTANCE_DEFINITIONS:
        rules["distance_definition"] = DISTANCE_DEFINITIONS[task["distance_to"]]
    return rules


def success(distance_to_goal: float, success_distance: float, called_stop: bool = True) -> float:
    """1.0 when the agent stopped closer than `success_distance` metres to the goal (habitat-lab compares
    with `<`), else 0.0."""
    return 1.0 if called_stop and distance_to_goal < success_distance else 0.0


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
    lenient_success_distance: float | None = None,
) -> dict[str, float]:
    """success, spl, soft_spl and distance_to_goal of one (sub)task, the metrics ObjectNav/OVON/GOAT report;
    with `lenient_success_distance`, also lenient_success and lenient_spl at that looser radius (a second,
    separately named figure: success and spl always use the benchmark's radius)."""
    s = success(distance_to_goal, success_distance, called_stop)
    metrics = {
        "success": s,
        "spl": spl(s, shortest_path_length, path_length),
        "soft_spl": soft_spl(distance_to_goal, start_distance_to_goal, shortest_path_length, path_length),
        "distance_to_goal": float(distance_to_goal),
    }
    if lenient_success_distance is not None:
        lenient = success(distance_to_goal, lenient_success_distance, called_stop)
        metrics["lenient_success"] = lenient
        metrics["lenient_spl"] = spl(lenient, shortest_path_length, path_length)
    return metrics


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
