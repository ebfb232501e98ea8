"""The full text view of one episode: instruction, programs and how they were generated, each program with
per-line counts and time, the events of its trace folded, metrics, subtasks and the failure reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tango.inspect.listing import trace_view
from tango.trace.reader import read_trace

GENERATION_FIELDS = ("generator", "model", "program_source", "cached", "check_passed", "fallback_reason",
                     "failure_reason", "errors")  # fmt: skip


def _generation_line(generation: dict[str, Any]) -> str:
    """How one program came about, in a line: generator, model, source, attempts and what went wrong."""
    parts = [
        f"{key} {generation[key]}" for key in GENERATION_FIELDS if generation.get(key) not in (None, [], "")
    ]
    attempts = generation.get("attempts")
    if isinstance(attempts, list):
        failed = [a.get("error") for a in attempts if isinstance(a, dict) and a.get("error")]
        parts.append(
            f"{len(attempts)} attempts" + (f" ({len(failed)} failed: {failed[-1]})" if failed else "")
        )
    if generation.get("replans"):
        parts.append(f"{len(generation['replans'])} replans")
    return " · ".join(parts)


def _generation_lines(generation: dict[str, Any] | None) -> list[str]:
    if not generation:
        return ["  (no generation record)"]
    subtasks = generation.get("subtasks")
    if isinstance(subtasks, list):
        return [
            f"  subtask {n}: {_generation_line(g)}" for n, g in enumerate(subtasks) if isinstance(g, dict)
        ]
    return [f"  {_generation_line(generation)}"]


def trace_lines(events: list[dict[str, Any]], full: bool, limit: int) -> list[str]:
    """A tango trace as per-line program listings and its events (folded unless `full`), at most `limit`."""
    lines = trace_view(events, full)
    cut = [event for event in events if event.get("event") == "cut"]
    if cut:
        lines.append(f"TRACE CUT at its cap: {cut[-1].get('dropped_events')} events not written")
    if len(lines) > limit:
        lines = lines[:limit] + [f"... {len(lines) - limit} more lines (--trace-lines)"]
    return lines


def episode_report(run_dir: Path, record: dict[str, Any], trace_limit: int, full: bool = False) -> str:
    """The full text view of one episode."""
    parts = [
        f"episode {record['episode_id']}  task {record.get('task')}  scene {record.get('scene_id')}",
        f"instruction: {record.get('instruction')}",
        f"status: {record.get('status', 'ok')}  steps: {record.get('num_steps')}  seed: {record.get('seed')}",
        f"failure reason: {record.get('failure_reason')}",
        "",
        "generation:",
        *_generation_lines(record.get("generation")),
        "",
        "metrics:",
        *(f"  {name}: {value}" for name, value in sorted((record.get("metrics") or {}).items())),
    ]
    for number, subtask in enumerate(record.get("subtasks") or []):
        parts.append(f"  subtask {number}: {json.dumps(subtask, sort_keys=True)}")
    if record.get("traceback"):
        parts += ["", "traceback:", str(record["traceback"])]
    trace_path = record.get("trace_path")
    parts += ["", f"trace ({trace_path}):"]
    path = run_dir / str(trace_path)
    events = read_trace(path) if trace_path and path.is_file() else []
    if any(event.get("event") == "program" for event in events):
        parts += trace_lines(events, full, trace_limit)
        return "\n".join(parts + _artifacts(run_dir, record))
    parts += (
        ["(not a tango trace: its lines as written)", *_head(path, trace_limit)] if events else ["(none)"]
    )
    parts += ["", "program:", str(record.get("program") or "(none)")]
    return "\n".join(parts + _artifacts(run_dir, record))


def _head(path: Path, limit: int) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return lines[:limit] + (
        [f"... {len(lines) - limit} more lines (--trace-lines)"] if len(lines) > limit else []
    )


def _artifacts(run_dir: Path, record: dict[str, Any]) -> list[str]:
    return [
        f"{key.removesuffix('_path')}: {run_dir / record[key]}"
        for key in ("video_path", "thumbnail_path")
        if record.get(key)
    ]
