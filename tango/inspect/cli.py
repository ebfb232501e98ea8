"""`python -m tango.inspect RUN_DIR [--episode ID [--full]] [--failed] [--reason R] [--breakdown]`.

Without options: a table of the episodes (filtered to failed ones, or to a failure reason). With --episode: its
instruction, programs, generation, each program with per-line runs/calls/steps/time, its trace with repeated
calls folded, metrics and the failure reason. With --breakdown: one cause per failed episode or subtask
(docs/traces.md), also written to RUN_DIR/breakdown.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tango.harness.results import ResultsError, read_records
from tango.inspect.episode import episode_report
from tango.inspect.table import episodes_table, filter_records


def breakdown_table(breakdown: dict[str, Any]) -> Table:
    """Counts per cause (they add up to the failures), then each failure with its cause and account."""
    unit = breakdown["unit"]
    table = Table(title=f"{breakdown['failures']} failed {unit}s of {breakdown['task']} by cause")
    for column in ("cause", "count", "meaning"):
        table.add_column(column)
    for cause, count in breakdown["causes"].items():
        if count:
            table.add_row(cause, str(count), breakdown["cause_meanings"][cause])
    table.add_row("total", str(sum(breakdown["causes"].values())), "")
    return table


def cases_table(breakdown: dict[str, Any]) -> Table:
    table = Table(title="failures")
    for column in ("episode", "subtask", "goal type", "cause", "account"):
        table.add_column(column)
    for case in breakdown["cases"]:
        subtask = "" if case["subtask"] is None else str(case["subtask"])
        table.add_row(case["episode_id"], subtask, case["goal_type"] or "", case["cause"], case["detail"])
    return table


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns a process exit code."""
    parser = argparse.ArgumentParser(prog="python -m tango.inspect", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--episode", help="show this episode in full")
    parser.add_argument("--full", action="store_true", help="with --episode: every trace event, none folded")
    parser.add_argument("--failed", action="store_true", help="only failed episodes")
    parser.add_argument("--reason", help="only episodes whose failure reason or error type contains this")
    parser.add_argument(
        "--breakdown", action="store_true", help="one cause per failure (writes breakdown.json)"
    )
    parser.add_argument("--trace-lines", type=int, default=400, help="trace lines to show (default 400)")
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
    if args.breakdown:
        from tango.analysis.breakdown import write_breakdown

        breakdown = write_breakdown(args.run_dir)
        console.print(breakdown_table(breakdown))
        console.print(cases_table(breakdown))
        for note in breakdown["notes"]:
            console.print(f"note: {note}", markup=False)
        return 0
    if args.episode:
        matches = [record for record in records if str(record["episode_id"]) == args.episode]
        if not matches:
            print(f"inspect: no episode {args.episode!r} in {args.run_dir}", file=sys.stderr)
            return 2
        text = episode_report(args.run_dir, matches[0], args.trace_lines, args.full)
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        return 0
    console.print(episodes_table(filter_records(records, args.failed, args.reason)))
    return 0
