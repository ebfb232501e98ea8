"""Per task x condition x maze size means of a GraphNav run: `python -m tango.benchmarks.graphnav.breakdown RUN_DIR`.

Reads RUN_DIR/episodes.jsonl (written by the harness) and prints one JSON object per group.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

METRICS = ("success", "pfs", "spl", "dps", "num_steps", "invalid_actions")


def breakdown(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean of each metric per (task, condition, maze_size); a metric absent from a record is not averaged in."""
    groups: dict[tuple[str, str, int], list[dict[str, float]]] = defaultdict(list)
    for record in records:
        extra = record.get("extra") or {}
        key = (str(extra.get("task")), str(extra.get("condition")), int(extra.get("maze_size", 0)))
        groups[key].append(record.get("metrics") or {})
    rows = []
    for (task, condition, size), metrics in sorted(groups.items()):
        row: dict[str, Any] = {
            "task": task,
            "condition": condition,
            "maze_size": size,
            "episodes": len(metrics),
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
