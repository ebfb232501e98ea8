"""Navigation measures (success, SPL, soft SPL) and the Habitat benchmarks' scoring rules.

Definitions follow habitat-lab's `Success`, `SPL` and `SoftSPL` (habitat/tasks/nav/nav.py; Anderson et al.
2018): success is a stop strictly closer than the success distance; SPL = S * l / max(p, l) with l the distance
to the goal at the start and p the length the agent walked; soft SPL replaces S by the progress
max(0, 1 - d_T / d_0). Distances are geodesic, to what the task's `distance_to` names (habitat-lab's
DistanceToGoal: VIEW_POINTS or POINT), computed by the simulator. tests/tasks/test_measures_match_habitat_lab.py
drives the same trajectories through habitat-lab's own measures and these. `scoring_rules` is what the Habitat
task plugins record with every result (TaskScoring.scoring_rules, tango.harness.scoring).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
