"""The scoring side of the task interface: what a task tells the harness about how its results are judged.

Every task answers three questions (methods of its `TaskPlugin`, tango.harness.episode):
- `scoring_rules(task_cfg)`: how a run is scored (e.g. a success radius and its source), copied into every
  record and into summary.json so two runs scored differently are never compared as equals;
- `aggregate(subtasks)`: the pooled figures of multi-goal episodes (summary.json's `subtasks`), or None;
- `outcome(metrics)`: the score, as a fraction, that decides whether an episode or subtask passed in the report
  and the failure breakdown (a case passes at `PASS_SCORE` or above), or None when it has none.

`BaseTask` holds benchmark-neutral defaults (no rules, no pooling, the outcome is `success`); a task inherits
it and overrides what its benchmark defines. `pool_by_goal_type` is the pooling a multi-goal task may choose:
it only reads the `goal_type` key the harness's own subtask records carry (tango.harness.episode).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeGuard, runtime_checkable

PASS_SCORE = 0.5
"""An episode or subtask whose outcome is at least this passed (a 0/1 success, or a fraction of a score)."""
GOAL_TYPE_KEY = "goal_type"
"""The key of a subtask record that names its goal type (EpisodeSpec.subtask_goal_types)."""


def is_number(value: object) -> TypeGuard[int | float]:
    """True for an int or float that is not a bool (metrics are numbers; flags are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@runtime_checkable
class TaskScoring(Protocol):
    """How a task's results are judged; part of every TaskPlugin (tango.harness.episode)."""

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """The rules a run with this `task` config section is scored by (JSON-able), recorded with results."""
        ...

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The pooled subtask figures of a run (all episodes' subtasks), or None when the task pools none.

        A pooled dict has `count`, `metrics` (name -> mean) and `by_goal_type` (goal type -> {count, metrics});
        the harness adds the 95% interval of each (`ci95`, resampling whole episodes).
        """
        ...

    def outcome(self, metrics: Mapping[str, Any]) -> float | None:
        """The score, as a fraction, that decides whether an episode or subtask with these metrics passed
        (at `PASS_SCORE` or above); None when the metrics hold none."""
        ...


class BaseTask:
    """Benchmark-neutral scoring for a TaskPlugin to inherit: no rules, no pooling, the outcome is `success`."""

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """No rules beyond the task's own metrics."""
        return {}

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        """No pooled subtask figures."""
        return None

    def outcome(self, metrics: Mapping[str, Any]) -> float | None:
        """The `success` metric (0 or 1, or a fraction), None without one."""
        value = metrics.get("success")
        return float(value) if is_number(value) else None


def _means(rows: list[dict[str, Any]]) -> dict[str, float]:
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for key, value in row.items():
            if key != GOAL_TYPE_KEY and is_number(value):
                sums[key] += float(value)
                counts[key] += 1
    return {key: sums[key] / counts[key] for key in sorted(sums)}


def pool_by_goal_type(subtasks: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Pool the subtasks of all episodes: counts and metric means overall and per goal type.

    Each subtask is a dict of numbers plus `goal_type`; every subtask weighs the same, so an episode of 10
    subtasks weighs 10 (GOAT-Bench reports SR and SPL over subtasks, not over episodes).
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
