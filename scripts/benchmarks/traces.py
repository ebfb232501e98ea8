"""Benchmark of traces and the after-run analysis: `python scripts/bench.py traces [--outer N] [--run DIR]`.

Prints one JSON line with
- `loop_trace_bytes`, `loop_cpu_s`: the trace size and CPU time of issue 12's program, a loop `--outer` x 99
  times over an assignment of a 19,500-character string (stopped by the statement budget of 100,000);
  `PYTHONPATH=OLD python scripts/bench.py traces` measures another checkout's interpreter the same way;
- with `--run DIR` (a finished run): `trace_bytes_per_step` over its traces, and the CPU seconds of its failure
  breakdown (`breakdown_cpu_s`, scene loading and visibility renders included) and of report.html
  (`report_cpu_s`, breakdown included), with the number of failures analysed;
plus the 1-minute load average.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, Trace, parse

LITERAL_CHARS = 19_500


def loop_trace(outer: int) -> dict[str, float]:
    """Trace size and CPU time of the nested assignment loop."""
    source = f"for i in range({outer}):\n    for j in range(99):\n        s = '{'y' * LITERAL_CHARS}'\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.jsonl"
        budget = Budget()
        trace = Trace(path)
        start = time.process_time()
        result = Interpreter("habitat").run(
            parse(source), AgentContext(agent=None, budget=budget, trace=trace)
        )
        trace.close()
        return {
            "loop_cpu_s": round(time.process_time() - start, 3),
            "loop_trace_bytes": path.stat().st_size,
            "loop_stop_reason": result.stop_reason,
        }


def run_costs(run_dir: Path) -> dict[str, float]:
    """Trace bytes per step of a finished run, and the CPU cost of its breakdown and report."""
    from tango.analysis.breakdown import analyse_run
    from tango.harness.report import write_report
    from tango.harness.results import read_records

    records = read_records(run_dir)
    steps = sum(int(record.get("num_steps") or 0) for record in records)
    traced = sum((run_dir / r["trace_path"]).stat().st_size for r in records if r.get("trace_path"))
    start = time.process_time()
    breakdown = analyse_run(run_dir)
    breakdown_cpu = time.process_time() - start
    summary = json.loads((run_dir / "summary.json").read_text())
    start = time.process_time()
    write_report(run_dir, summary, records)
    return {
        "episodes": len(records),
        "steps": steps,
        "trace_bytes_per_step": round(traced / max(steps, 1), 1),
        "failures": breakdown["failures"],
        "breakdown_cpu_s": round(breakdown_cpu, 2),
        "report_cpu_s": round(time.process_time() - start, 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/bench.py traces", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--outer", type=int, default=1000, help="outer iterations of the loop (default 1000)")
    parser.add_argument("--run", type=Path, help="a finished run directory to measure")
    args = parser.parse_args(argv)
    result: dict[str, object] = dict(loop_trace(args.outer))
    if args.run is not None:
        result.update(run_costs(args.run))
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result))
    return 0
