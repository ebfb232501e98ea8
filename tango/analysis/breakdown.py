"""Failure analysis of a finished run: every failed episode (or GOAT subtask) gets exactly one cause, from its
trace and the benchmark's ground truth, read after the run (evaluation only). Written to RUN/breakdown.json,
shown by `python -m tango.inspect RUN --breakdown` and in report.html.

Habitat tasks (objectnav, ovon, goat, openeqa) get the rules of tango.analysis.causes; other tasks (GraphNav,
UrbanGround) have no scene ground truth here, so their failures are split by record alone (episode error,
program error, step budget, else `other` with the task's own reason; GraphNav's own per-condition breakdown is
`python -m tango.benchmarks.graphnav.breakdown`).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tango.analysis.causes import (
    CAUSES,
    EPISODE_ERROR,
    answer_cause,
    evidence,
    navigation_cause,
    record_cause,
)
from tango.analysis.ground import GoalSet, RunGroundTruth, SceneView, goal_distance
from tango.harness.episode import recorded_scoring
from tango.harness.results import SUMMARY_FILE, read_records
from tango.harness.scoring import PASS_SCORE, TaskScoring
from tango.trace.reader import Segment, read_trace, segments

LOG = logging.getLogger(__name__)
BREAKDOWN_FILE = "breakdown.json"
FORMAT = "tango-breakdown/1"
HABITAT_TASKS = ("objectnav", "ovon", "goat", "openeqa")


def failed_cases(record: dict[str, Any], scoring: TaskScoring) -> list[dict[str, Any]]:
    """The failures of one record: its failed subtasks (GOAT), else the episode when it failed (by the task's
    outcome score, below PASS_SCORE)."""
    base = {"episode_id": str(record["episode_id"])}
    subtasks = record.get("subtasks") or []
    if subtasks:
        return [
            {**base, "subtask": index, "goal_type": subtask.get("goal_type")}
            for index, subtask in enumerate(subtasks)
            if record.get("status") == "error" or (scoring.outcome(subtask) or 0.0) < PASS_SCORE
        ]
    value = scoring.outcome(record.get("metrics") or {})
    failed = record.get("status") == "error" or (
        value < PASS_SCORE if value is not None else bool(record.get("failure_reason"))
    )
    return [{**base, "subtask": None, "goal_type": None}] if failed else []


class Analyser:
    """Assigns causes for one run; ground truth is loaded once (None with the reason when it cannot be)."""

    def __init__(self, run_dir: Path, summary: dict[str, Any]) -> None:
        self.run_dir = run_dir
        self.task = str(summary.get("task"))
        self.success_distance = float(summary.get("success_distance") or 1.0)
        self.truth: RunGroundTruth | None = None
        self.notes: list[str] = []
        if self.task in HABITAT_TASKS:
            try:
                self.truth = RunGroundTruth(summary.get("configs") or {})
            except Exception as error:  # noqa: BLE001 - any failure to load ground truth is reported, not fatal
                self.notes.append(
                    f"ground truth unavailable ({type(error).__name__}: {error}); visibility unknown"
                )

    def cause(self, record: dict[str, Any], case: dict[str, Any]) -> tuple[str, str]:
        if record.get("status") == "error":
            return EPISODE_ERROR, str(record.get("failure_reason") or record.get("error_type"))
        if self.task not in HABITAT_TASKS:
            return record_cause(record)
        segment = self._segment(record, case["subtask"])
        ev = evidence(segment)
        episode_id = case["episode_id"]
        goals = self.truth.goals(episode_id) if self.truth is not None else []
        goal = goals[case["subtask"] or 0] if len(goals) > (case["subtask"] or 0) else None
        scene = self._scene(episode_id)
        if self.task == "openeqa":
            return answer_cause(ev, None if goal is None else _all_seen(goal, scene, segment.poses))
        if goal is None:
            return navigation_cause(ev, lambda _: float("inf"), lambda: None, self.success_distance)
        return navigation_cause(
            ev,
            lambda point: goal_distance(point, goal, scene),
            lambda: _first_seen(goal, scene, segment.poses),
            self.success_distance,
        )

    def _segment(self, record: dict[str, Any], subtask: int | None) -> Segment:
        path = self.run_dir / str(record.get("trace_path") or "")
        parts = segments(read_trace(path)) if record.get("trace_path") and path.is_file() else []
        matching = [s for s in parts if s.index == subtask] or [s for s in parts if s.index is None]
        return matching[0] if matching else Segment(subtask, [])

    def _scene(self, episode_id: str) -> SceneView | None:
        if self.truth is None:
            return None
        try:
            return self.truth.scene(episode_id)
        except Exception as error:  # noqa: BLE001 - a scene that cannot be loaded leaves visibility unknown
            self.notes.append(f"episode {episode_id}: scene not loaded ({type(error).__name__}: {error})")
            return None

    def close(self) -> None:
        if self.truth is not None:
            self.truth.close()


def _first_seen(goal: GoalSet, scene: SceneView | None, poses: Sequence[Sequence[float]]) -> int | None:
    if scene is None:
        return None
    views = [scene.seen_from(object_id, poses) for object_id in goal.object_ids]
    return min((v for v in views if v is not None), default=None)


def _all_seen(goal: GoalSet, scene: SceneView | None, poses: Sequence[Sequence[float]]) -> bool | None:
    if scene is None or not goal.object_ids:
        return None
    return all(scene.seen_from(object_id, poses) is not None for object_id in goal.object_ids)


def analyse_run(run_dir: Path, scoring: TaskScoring | None = None) -> dict[str, Any]:
    """The breakdown of a run directory (it reads episodes.jsonl, summary.json and the traces); `scoring` is
    the task's (by default the plugin the summary's configs name)."""
    run_dir = Path(run_dir)
    summary = json.loads((run_dir / SUMMARY_FILE).read_text())
    scoring = scoring if scoring is not None else recorded_scoring(summary.get("configs"))
    records = read_records(run_dir)
    analyser = Analyser(run_dir, summary)
    cases = []
    try:
        for record in sorted(records, key=lambda r: str(r["episode_id"])):
            for case in failed_cases(record, scoring):
                cause, detail = analyser.cause(record, case)
                cases.append({**case, "cause": cause, "detail": detail})
    finally:
        analyser.close()
    counts = Counter(case["cause"] for case in cases)
    return {
        "format": FORMAT,
        "task": analyser.task,
        "unit": "subtask" if any(case["subtask"] is not None for case in cases) else "episode",
        "failures": len(cases),
        "causes": {name: counts.get(name, 0) for name in CAUSES},
        "cause_meanings": CAUSES,
        "cases": cases,
        "notes": analyser.notes,
    }


def write_breakdown(run_dir: Path, scoring: TaskScoring | None = None) -> dict[str, Any]:
    """Analyse the run and write RUN/breakdown.json; the breakdown."""
    breakdown = analyse_run(run_dir, scoring)
    (Path(run_dir) / BREAKDOWN_FILE).write_text(json.dumps(breakdown, indent=2) + "\n")
    return breakdown
