"""`python -m tango.merge OUT DIR...`: combine shard run directories into one run with a recomputed summary.

Every episode must appear in exactly one shard (a duplicate is an error naming it and its directories), all
shards must be of the same task, and OUT must not hold results yet. Traces, videos, maps and goal pictures are
copied.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from tango.analysis.breakdown import write_breakdown
from tango.harness.report import write_report
from tango.harness.results import SUMMARY_FILE, ResultsError, ResultsWriter, read_records
from tango.harness.run import write_summary
from tango.harness.summary import summarize

ARTIFACT_KEYS = ("trace_path", "video_path", "thumbnail_path")


def artifact_paths(record: dict[str, Any]) -> list[str]:
    """The files of one record relative to its run dir: trace, video, map, and its subtasks' goal pictures."""
    paths = [str(record[key]) for key in ARTIFACT_KEYS if record.get(key)]
    subtasks = [s for s in record.get("subtasks") or [] if isinstance(s, dict)]
    return paths + [str(s["goal_image_path"]) for s in subtasks if s.get("goal_image_path")]


def _shard_summary(run_dir: Path) -> dict[str, Any]:
    path = run_dir / SUMMARY_FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def merge_runs(out_dir: Path, run_dirs: list[Path]) -> dict[str, Any]:
    """Merge the shards into `out_dir`; return the recomputed summary. Raises ResultsError on conflicts."""
    if not run_dirs:
        raise ResultsError("nothing to merge: give at least one run directory")
    owners: dict[str, list[str]] = defaultdict(list)
    shards: list[tuple[Path, list[dict[str, Any]]]] = []
    for run_dir in run_dirs:
        if not run_dir.is_dir():
            raise ResultsError(f"{run_dir}: not a directory")
        records = read_records(run_dir)
        for record in records:
            owners[str(record["episode_id"])].append(str(run_dir))
        shards.append((run_dir, records))
    duplicates = {episode_id: dirs for episode_id, dirs in owners.items() if len(dirs) > 1}
    if duplicates:
        listed = "; ".join(f"{episode_id} in {dirs}" for episode_id, dirs in sorted(duplicates.items())[:10])
        raise ResultsError(f"episodes recorded in more than one shard ({len(duplicates)}): {listed}")
    tasks = {str(record.get("task")) for _, records in shards for record in records}
    if len(tasks) > 1:
        raise ResultsError(f"shards are of different tasks: {sorted(tasks)}")
    writer = ResultsWriter(out_dir)
    if writer.records:
        raise ResultsError(f"{writer.path} already holds results; merge into an empty directory")
    for run_dir, records in shards:
        for record in records:
            for relative in artifact_paths(record):
                source = run_dir / relative
                if source.is_file():
                    target = out_dir / relative
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, target)
            writer.append(record)
    summaries = [_shard_summary(run_dir) for run_dir in run_dirs]
    wall_times = [float(summary.get("wall_time_s", 0.0)) for summary in summaries]
    configs: dict[str, Any] = next(
        (summary["configs"] for summary in summaries if summary.get("configs")), {}
    )
    task = tasks.pop() if tasks else str(configs.get("task", {}).get("name", "unknown"))
    planned = sum(int(summary.get("num_planned", 0)) for summary in summaries) or None
    summary = summarize(
        writer.records, task, max(wall_times, default=0.0), configs=configs, num_planned=planned
    )
    summary["merged_from"] = [str(run_dir) for run_dir in run_dirs]
    summary["shard_wall_time_s_total"] = sum(wall_times)
    write_summary(out_dir, summary)
    write_report(out_dir, summary, writer.records, analyse=write_breakdown)
    return summary


def main(argv: list[str] | None = None) -> int:
    """CLI: prints the merged episode count, or the conflict, and returns a process exit code."""
    parser = argparse.ArgumentParser(prog="python -m tango.merge", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="directory for the merged run")
    parser.add_argument("run_dirs", type=Path, nargs="+", help="shard run directories")
    args = parser.parse_args(argv)
    try:
        summary = merge_runs(args.out, args.run_dirs)
    except ResultsError as error:
        print(f"merge failed: {error}", file=sys.stderr)
        return 2
    print(f"merged {summary['num_episodes']} episodes from {len(args.run_dirs)} runs into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
