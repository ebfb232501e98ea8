"""Per task x condition x maze size means of a GraphNav run: `python -m tango.benchmarks.graphnav.breakdown RUN_DIR`.

Reads RUN_DIR/episodes.jsonl (written by the harness) and prints one JSON object per group: the means of SR
(`success`), PFS, SPL and DPS (docs/graphnav.md) over every episode of the group, errors scored as failures,
and `errors`, the episodes the run could not play (e.g. MissingImages, NoRecognizer) by cause.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from tango.benchmarks.graphnav.maze import NAME_PATTERN, MazeName

METRICS = ("success", "pfs", "spl", "dps", "num_steps", "invalid_actions")


def _group(record: dict[str, Any]) -> tuple[str, str, int]:
    """(task, condition, maze size) of a record; an errored episode has no `extra`, so its episode id
    (`task/...`), scene id (the maze name) and the recorded controller (its condition) say them."""
    extra = record.get("extra") or {}
    if extra.get("task"):
        return str(extra["task"]), str(extra.get("condition")), int(extra.get("maze_size", 0))
    task = str(record.get("episode_id", "")).split("/")[0]
    name = str(record.get("scene_id", ""))
    size = MazeName.parse(name).size if NAME_PATTERN.match(name) else 0
    controller = record.get("controller")
    condition = controller.get("condition") if isinstance(controller, dict) else None
    return task, str(condition), size


def breakdown(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean of each metric per (task, condition, maze_size); a metric absent from a record is not averaged in."""
    groups: dict[tuple[str, str, int], list[dict[str, float]]] = defaultdict(list)
    errors: dict[tuple[str, str, int], Counter[str]] = defaultdict(Counter)
    for record in records:
        key = _group(record)
        groups[key].append(record.get("metrics") or {})
        if record.get("status") == "error":
            errors[key][str(record.get("error_type") or "error")] += 1
    rows = []
    for (task, condition, size), metrics in sorted(groups.items()):
        row: dict[str, Any] = {
            "task": task,
            "condition": condition,
            "maze_size": size,
            "episodes": len(metrics),
            "errors": dict(errors[(task, condition, size)]),
        }
        for name in METRICS:
            values = [m[name] for m in metrics if name in m]
            if values:
                row[name] = round(sum(values) / len(values), 4)
        rows.append(row)
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m tango.benchmarks.graphnav.breakdown RUN_DIR\n")
        return 2
    path = Path(argv[0]) / "episodes.jsonl"
    if not path.is_file():
        sys.stderr.write(f"error: {path} not found\n")
        return 1
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in breakdown(records):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
