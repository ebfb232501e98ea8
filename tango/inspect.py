"""`python -m tango.inspect RUN_DIR [--episode ID] [--failed] [--reason R]`: what happened in a run.

Without --episode: a table of the episodes (filtered to failed ones, or to a failure reason). With --episode:
its instruction, the program with how it was generated (generator, attempts, repair errors), the trace, the
metrics and the failure reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tango.harness.results import ResultsError, read_records


def is_failed(record: dict[str, Any]) -> bool:
    """An episode that raised, or that ended with a failure reason or without success."""
    metrics = record.get("metrics") or {}
    return (
        record.get("status") == "error" or bool(record.get("failure_reason")) or metrics.get("success") == 0.0
    )


def filter_records(records: list[dict[str, Any]], failed: bool, reason: str | None) -> list[dict[str, Any]]:
    """Records kept by --failed (any failure) and --reason (substring of the failure reason or error type)."""
    kept = [record for record in records if not failed or is_failed(record)]
    if reason:
        needle = reason.lower()
        kept = [
            record
            for record in kept
            if needle in str(record.get("failure_reason") or "").lower()
            or needle in str(record.get("error_type") or "").lower()
        ]
    return kept


def episodes_table(records: list[dict[str, Any]]) -> Table:
    """One row per episode: id, scene, success, steps, failure reason, instruction."""
    table = Table(title=f"{len(records)} episodes")
    for column in ("episode", "scene", "success", "steps", "failure reason", "instruction"):
        table.add_column(column)
    for record in records:
        success = (record.get("metrics") or {}).get("success")
        table.add_row(
            str(record["episode_id"]),
            str(record.get("scene_id", "")),
            "" if success is None else f"{success:.2f}",
            str(record.get("num_steps", "")),
            str(record.get("failure_reason") or ""),
            str(record.get("instruction") or "")[:60],
        )
    return table


def _generation_lines(generation: dict[str, Any] | None) -> list[str]:
    if not generation:
        return ["(no generation record)"]
    lines = []
    for key, value in generation.items():
        if key == "attempts" and isinstance(value, list):
            lines.append(f"attempts: {len(value)}")
            for number, attempt in enumerate(value, start=1):
                error = attempt.get("error") if isinstance(attempt, dict) else None
                lines.append(f"  attempt {number}: {'ok' if not error else 'error: ' + str(error)}")
        else:
            lines.append(f"{key}: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
    return lines


def episode_report(run_dir: Path, record: dict[str, Any], trace_lines: int) -> str:
    """The full text view of one episode."""
    parts = [
        f"episode {record['episode_id']}  task {record.get('task')}  scene {record.get('scene_id')}",
        f"instruction: {record.get('instruction')}",
        f"status: {record.get('status', 'ok')}  steps: {record.get('num_steps')}  seed: {record.get('seed')}",
        f"failure reason: {record.get('failure_reason')}",
        "",
        f"program (source: {record.get('program_source') or '?'}):",
        str(record.get("program") or "(none)"),
        "",
        "generation:",
        *_generation_lines(record.get("generation")),
        "",
        "metrics:",
        *(f"  {name}: {value}" for name, value in sorted((record.get("metrics") or {}).items())),
    ]
    for number, subtask in enumerate(record.get("subtasks") or [], start=1):
        parts.append(f"  subtask {number}: {json.dumps(subtask, sort_keys=True)}")
    if record.get("traceback"):
        parts += ["", "traceback:", str(record["traceback"])]
    trace_path = record.get("trace_path")
    parts += ["", f"trace ({trace_path}):"]
    if trace_path and (run_dir / trace_path).is_file():
        lines = (run_dir / trace_path).read_text(encoding="utf-8").splitlines()
        parts += lines[:trace_lines]
        if len(lines) > trace_lines:
            parts.append(f"... {len(lines) - trace_lines} more lines (--trace-lines)")
    else:
        parts.append("(no trace file)")
    for key in ("video_path", "thumbnail_path"):
        if record.get(key):
            parts.append(f"{key.removesuffix('_path')}: {run_dir / record[key]}")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns a process exit code."""
    parser = argparse.ArgumentParser(prog="python -m tango.inspect", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--episode", help="show this episode in full")
    parser.add_argument("--failed", action="store_true", help="only failed episodes")
    parser.add_argument("--reason", help="only episodes whose failure reason or error type contains this")
    parser.add_argument("--trace-lines", type=int, default=200, help="trace lines to show (default 200)")
    args = parser.parse_args(argv)
    try:
        records = read_records(args.run_dir)
    except ResultsError as error:
        print(f"inspect: {error}", file=sys.stderr)
        return 2
    if not records:
        print(f"inspect: {args.run_dir} has no episodes.jsonl records", file=sys.stderr)
        return 2
    console = Console()
    if args.episode:
        matches = [record for record in records if str(record["episode_id"]) == args.episode]
        if not matches:
            print(f"inspect: no episode {args.episode!r} in {args.run_dir}", file=sys.stderr)
            return 2
        console.print(
            episode_report(args.run_dir, matches[0], args.trace_lines), markup=False, highlight=False
        )
        return 0
    console.print(episodes_table(filter_records(records, args.failed, args.reason)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
