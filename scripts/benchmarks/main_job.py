"""Time the README's main job as a user's first run: `python -m tango.eval task=goat` in a fresh process with an
empty dataset cache, so it generates the synthetic dataset, then runs the 12 GOAT val episodes.

`python scripts/bench.py main_job [--cache DIR] [--models DIR] [-- OVERRIDE ...]` prints one JSON line: wall
seconds, the CPU seconds of the run and its children (user, system), the 1-minute load average before and
after (a busy machine makes the wall time meaningless), and the run's success with its interval. The cache is a
new temporary folder unless `--cache` names one (a second run there is the cached case); `--models` links an
already fetched model folder into it (the LLM is fetched by setup, not by the first run). Targets: 240 s with the
template programs (issue 22), 600 s with the local LLM (issue 27), on 2 idle cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _run(cache: Path, output: Path, overrides: list[str]) -> dict[str, Any]:
    env = {**os.environ, "TANGO_CACHE": str(cache)}
    command = [sys.executable, "-m", "tango.eval", "task=goat", f"eval.output_dir={output}", *overrides]
    load_before = os.getloadavg()[0]
    before = os.times()
    wall = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - wall
    after = os.times()
    record: dict[str, Any] = {
        "benchmark": "main job",
        "command": " ".join(["python -m tango.eval task=goat", *overrides]),
        "returncode": done.returncode,
        "wall_s": round(wall, 1),
        "children_user_cpu_s": round(after.children_user - before.children_user, 1),
        "children_system_cpu_s": round(after.children_system - before.children_system, 1),
        "load_average_1m_before": round(load_before, 2),
        "load_average_1m_after": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }
    summary_path = output / "summary.json"
    if done.returncode != 0 or not summary_path.exists():
        record["stderr_tail"] = done.stderr[-2000:]
        return record
    summary = json.loads(summary_path.read_text())
    record["success"] = summary["metrics"].get("success")
    record["success_ci95"] = summary.get("ci95", {}).get("success")
    record["episodes"] = summary.get("num_episodes", summary.get("episodes"))
    record["program_sources"] = summary.get("program_sources")
    return record


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py main_job")
    parser.add_argument(
        "--cache", type=Path, default=None, help="TANGO_CACHE to use (default: a new empty one)"
    )
    parser.add_argument(
        "--models", type=Path, default=None, help="a fetched models folder to link into the cache"
    )
    parser.add_argument("overrides", nargs="*", help="extra tango.eval overrides (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tango-main-job-") as tmp:
        cache = args.cache or Path(tmp) / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        if args.models is not None and not (cache / "models").exists():
            (cache / "models").symlink_to(args.models.resolve())
        record = _run(cache, Path(tmp) / "run", args.overrides)
    record["cache"] = "given" if args.cache else "empty"
    print(json.dumps(record))
    return 0 if record["returncode"] == 0 else 1
