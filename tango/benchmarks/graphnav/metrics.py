"""GraphNav metrics SR, PFS, SPL and DPS, exactly as FORMATS.md (GraphNav, "Metrics") reads the dataset card.

Our reading, cited from FORMATS.md:
- SR: the goal is reached within the step budget.
- PFS (repeated, reversed): directed edges of the actual path that are also edges of the ideal path, divided
  by the number of actual edges, 0 if the goal is not reached. A revisited edge counts every time it is taken.
- SPL (shortcut): success x ideal_len / max(actual_len, ideal_len), in key-node steps.
- DPS (shortcut): mean over steps of cos(angle between the step's movement vector and the vector from the
  step's start to the goal), in grid coordinates; undefined (absent) when no step was taken.
Results carry `success`, `pfs` or `spl`/`dps` (absent where the task does not define them), `num_steps` and
`invalid_actions`.
"""

from __future__ import annotations

import math
from itertools import pairwise

from tango.benchmarks.graphnav.keygraph import Cell


def path_following_score(actual: list[Cell], ideal: list[Cell], success: bool) -> float:
    """PFS: share of the actual directed edges that are directed edges of the ideal path (0 on failure)."""
    actual_edges = list(pairwise(actual))
    if not success or not actual_edges:
        return 0.0
    ideal_edges = set(pairwise(ideal))
    return sum(1 for edge in actual_edges if edge in ideal_edges) / len(actual_edges)


def success_weighted_path_length(actual_len: int, ideal_len: int, success: bool) -> float:
    """SPL in key-node steps."""
    if not success:
        return 0.0
    return ideal_len / max(actual_len, ideal_len, 1)


def directional_progress_score(actual: list[Cell], goal: Cell) -> float | None:
    """DPS: mean cosine between each step's move and the direction from the step's start to the goal."""
    cosines = []
    for start, end in pairwise(actual):
        move = (end[0] - start[0], end[1] - start[1])
        to_goal = (goal[0] - start[0], goal[1] - start[1])
        norm = math.hypot(*move) * math.hypot(*to_goal)
        cosines.append(0.0 if norm == 0 else (move[0] * to_goal[0] + move[1] * to_goal[1]) / norm)
    return sum(cosines) / len(cosines) if cosines else None


def episode_metrics(
    task: str, actual: list[Cell], ideal: list[Cell], goal: Cell, success: bool, invalid_actions: int
) -> dict[str, float]:
    """The metric dict of one finished episode for its task (keys as in the module docstring)."""
    metrics: dict[str, float] = {
        "success": float(success),
        "num_steps": float(len(actual) - 1),
        "invalid_actions": float(invalid_actions),
    }
    if task in ("repeated", "reversed"):
        metrics["pfs"] = path_following_score(actual, ideal, success)
    elif task == "shortcut":
        metrics["spl"] = success_weighted_path_length(len(actual) - 1, len(ideal) - 1, success)
        dps = directional_progress_score(actual, goal)
        if dps is not None:
            metrics["dps"] = dps
    return metrics


def failure_metrics(task: str) -> dict[str, float]:
    """The score of an episode that raised: a failure with no steps."""
    metrics = {"success": 0.0, "num_steps": 0.0, "invalid_actions": 0.0}
    metrics.update({"pfs": 0.0} if task in ("repeated", "reversed") else {"spl": 0.0})
    return metrics
