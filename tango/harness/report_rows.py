"""The rows of report.html's episode table: one per episode, or one per subtask for multi-goal episodes (GOAT),
each with the real goal (text and picture), outcome, failure cause, map, video and program.

A record's subtask may carry its own `program`, or the generation record may hold one per subtask
(`generation.subtasks[i].program`); otherwise the episode's one program is shown on its first row.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tango.harness.scoring import PASS_SCORE

Outcome = Callable[[Mapping[str, Any]], float | None]
"""The task's outcome score of an episode's or subtask's metrics (TaskScoring.outcome)."""


@dataclass
class Row:
    """One line of the table; `first` marks the first row of an episode (where its map and program sit)."""

    episode_id: str
    subtask: int | None
    goal_type: str
    goal: str
    outcome: str
    first: bool = True
    goal_image: str | None = None
    score: float | None = None
    spl: float | None = None
    steps: int | None = None
    distance: float | None = None
    cause: str = ""
    cause_detail: str = ""
    reason: str = ""
    map_path: str | None = None
    video_path: str | None = None
    program: str = ""
    notes: list[str] = field(default_factory=list)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _outcome(record: dict[str, Any], score: float | None) -> str:
    if record.get("status") == "error":
        return "error"
    if score is None:
        return "failure" if record.get("failure_reason") else "success"
    return "success" if score >= PASS_SCORE else "failure"


def _subtask_program(record: dict[str, Any], index: int, subtask: dict[str, Any]) -> str | None:
    if isinstance(subtask.get("program"), str):
        return str(subtask["program"])
    generation = record.get("generation")
    per_subtask = generation.get("subtasks") if isinstance(generation, dict) else None
    if isinstance(per_subtask, list) and index < len(per_subtask) and isinstance(per_subtask[index], dict):
        program = per_subtask[index].get("program")
        return program if isinstance(program, str) else ""
    return None


def _subtask_goal(subtask: dict[str, Any]) -> str:
    """The goal as given to the agent (description text, category name); for a picture, what it shows."""
    if subtask.get("goal_image_path"):
        return f"picture of a {subtask.get('category') or 'goal object'} (the agent gets only the picture)"
    return str(subtask.get("goal") or subtask.get("category") or f"({subtask.get('goal_type')} goal)")


def _subtask_rows(
    record: dict[str, Any], causes: dict[tuple[str, int | None], dict[str, Any]], outcome: Outcome
) -> list[Row]:
    episode_id = str(record["episode_id"])
    rows = []
    for index, subtask in enumerate(record.get("subtasks") or []):
        score = outcome(subtask)
        case = causes.get((episode_id, index), {})
        program = _subtask_program(record, index, subtask)
        if program is None:
            program = (
                str(record.get("program") or "") if index == 0 else "(one program for the episode: row 0)"
            )
        rows.append(
            Row(
                episode_id=episode_id,
                subtask=index,
                goal_type=str(subtask.get("goal_type") or ""),
                goal=_subtask_goal(subtask),
                goal_image=subtask.get("goal_image_path"),
                outcome=_outcome(record, score),
                first=index == 0,
                score=score,
                spl=_number(subtask.get("spl")),
                steps=int(subtask["num_steps"]) if _number(subtask.get("num_steps")) is not None else None,
                distance=_number(subtask.get("distance_to_goal")),
                cause=str(case.get("cause") or ""),
                cause_detail=str(case.get("detail") or ""),
                reason=str(record.get("failure_reason") or "") if index == 0 else "",
                map_path=record.get("thumbnail_path") if index == 0 else None,
                video_path=record.get("video_path"),
                program=program,
            )
        )
    return rows


def episode_rows(
    records: list[dict[str, Any]], breakdown: dict[str, Any] | None, outcome: Outcome
) -> list[Row]:
    """Every row of the table, episodes in id order, subtasks in their order; `outcome` (the task's) decides
    which passed."""
    causes = {(str(c["episode_id"]), c.get("subtask")): c for c in (breakdown or {}).get("cases") or []}
    rows: list[Row] = []
    for record in sorted(records, key=lambda r: str(r.get("episode_id"))):
        if record.get("subtasks"):
            rows += _subtask_rows(record, causes, outcome)
            continue
        metrics = record.get("metrics") or {}
        score = outcome(metrics)
        extra = record.get("extra") or {}
        case = causes.get((str(record["episode_id"]), None), {})
        notes = [f"{key}: {extra[key]}" for key in ("reference", "prediction", "category") if extra.get(key)]
        rows.append(
            Row(
                episode_id=str(record["episode_id"]),
                subtask=None,
                goal_type=str(extra.get("category") or record.get("task") or ""),
                goal=str(record.get("instruction") or ""),
                outcome=_outcome(record, score),
                score=score,
                spl=_number(metrics.get("spl")),
                steps=record.get("num_steps"),
                distance=_number(metrics.get("distance_to_goal")),
                cause=str(case.get("cause") or ""),
                cause_detail=str(case.get("detail") or ""),
                reason=str(record.get("failure_reason") or ""),
                map_path=record.get("thumbnail_path"),
                video_path=record.get("video_path"),
                program=str(record.get("program") or ""),
                notes=notes,
            )
        )
    return rows


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _fmt(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def row_html(row: Row) -> str:
    """One <tr> with sort keys in data-sort and the outcome and cause in data attributes for the filters."""
    picture = (
        f'<a href="{_e(row.goal_image)}"><img class="goal" src="{_e(row.goal_image)}" alt="goal picture"></a>'
        if row.goal_image
        else ""
    )
    notes = "".join(f'<div class="note">{_e(note)}</div>' for note in row.notes)
    map_cell = (
        f'<a href="{_e(row.map_path)}"><img class="map" src="{_e(row.map_path)}" alt="top-down map"></a>'
        if row.map_path
        else ("" if row.first else '<span class="dim">↑</span>')
    )
    video = f'<a href="{_e(row.video_path)}">video</a>' if row.video_path else ""
    program = (
        f"<details><summary>program</summary><pre>{_e(row.program)}</pre></details>" if row.program else ""
    )
    cause = f'<span class="cause" title="{_e(row.cause_detail)}">{_e(row.cause)}</span>' if row.cause else ""
    detail = f'<div class="note">{_e(row.cause_detail)}</div>' if row.cause_detail else ""
    reason = f'<div class="reason">{_e(row.reason)}</div>' if row.reason else ""
    subtask = "" if row.subtask is None else str(row.subtask)
    return (
        f'<tr class="episode {row.outcome}{" first" if row.first else ""}" data-outcome="{row.outcome}" '
        f'data-cause="{_e(row.cause)}" data-episode-id="{_e(row.episode_id)}">'
        f'<td data-sort="{_e(row.episode_id)}">{_e(row.episode_id)}</td>'
        f'<td data-sort="{subtask}">{subtask}</td><td>{_e(row.goal_type)}</td>'
        f'<td class="goal">{picture}<div>{_e(row.goal)}</div>{notes}</td>'
        f'<td data-sort="{_fmt(row.score, 3)}"><span class="badge {row.outcome}">{row.outcome}</span></td>'
        f'<td data-sort="{_fmt(row.spl, 3)}">{_fmt(row.spl)}</td>'
        f'<td data-sort="{"" if row.steps is None else row.steps}">{"" if row.steps is None else row.steps}</td>'
        f'<td data-sort="{_fmt(row.distance, 3)}">{_fmt(row.distance)}</td>'
        f"<td>{cause}{detail}{reason}</td><td>{map_cell}</td><td>{video}</td><td>{program}</td></tr>"
    )
