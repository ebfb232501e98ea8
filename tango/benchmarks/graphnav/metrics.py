"""GraphNav metrics SR, PFS, SPL and DPS as the dataset card reads them (formulas in docs/graphnav.md).

The card names the metrics and points to its code (`toolKit_core.py`: "episode execution, metrics"); where the
card's wording leaves a case open we follow that code:
- SR: the goal is reached within the step budget.
- PFS (repeated, reversed): |distinct directed edges of the actual path that are directed edges of the ideal
  path| / (number of moves of the actual path), 0 if the goal is not reached. A revisited ideal edge counts
  once in the numerator and every time in the denominator, so detours and back-and-forth lower PFS.
- SPL (shortcut): success x ideal_len / max(actual_len, ideal_len), in key-node steps.
- DPS (shortcut): mean over moves of cos(angle between the move's vector and the vector from the move's start
  to the goal), in grid coordinates; moves with a zero vector are skipped, and an episode with no move scores 0.
  It is computed for failed episodes too (it measures heading toward the goal, not arrival).
Results carry `success`, `pfs` or `spl` and `dps`, `num_steps` and `invalid_actions`.
"""

from __future__ import annotations

import math
from itertools import pairwise

from tango.benchmarks.graphnav.keygraph import Cell


def path_following_score(actual: list[Cell], ideal: list[Cell], success: bool) -> float:
    """PFS: distinct ideal directed edges walked, over all moves made (0 on failure)."""
    actual_edges = list(pairwise(actual))
    if not success or not actual_edges:
        return 0.0
    return len(set(actual_edges) & set(pairwise(ideal))) / len(actual_edges)


def success_weighted_path_length(actual_len: int, ideal_len: int, success: bool) -> float:
    """SPL in key-node steps."""
    if not success:
        return 0.0
    return ideal_len / max(actual_len, ideal_len, 1)


def directional_progress_score(actual: list[Cell], goal: Cell) -> float:
    """DPS: mean cosine between each move and the direction from the move's start to the goal (0 without moves)."""
    cosines = []
    for start, end in pairwise(actual):
        move = (end[0] - start[0], end[1] - start[1])
        to_goal = (goal[0] - start[0], goal[1] - start[1])
        norm = math.hypot(*move) * math.hypot(*to_goal)
        if norm > 0:
            cosines.append((move[0] * to_goal[0] + move[1] * to_goal[1]) / norm)
    return sum(cosines) / len(cosines) if cosines else 0.0


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
        metrics["dps"] = directional_progress_score(actual, goal)
    return metrics


def failure_metrics(task: str) -> dict[str, float]:
    """The score of an episode that raised or could not run: a failure with no moves."""
    metrics = {"success": 0.0, "num_steps": 0.0, "invalid_actions": 0.0}
    metrics.update({"pfs": 0.0} if task in ("repeated", "reversed") else {"spl": 0.0, "dps": 0.0})
    return metrics
