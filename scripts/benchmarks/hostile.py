"""Hostile programs replayed as real episodes: `python scripts/bench.py hostile [--cases A,B] [--timeout S]`.

Each case writes a one-line replay file (the program keyed by the first episode's instruction of its task),
runs `python -m tango.eval task=T generator=replay eval.num_episodes=1` under `/usr/bin/time -v` in a fresh
process, and reports its wall time, peak RSS (the whole loaded process), the size of the results folder, the
exit code, and the episode's status, failure reason and score. A watchdog kills a run whose process tree grows
past `--rss-limit-gb` (to spare a shared machine); `killed` says so. Prints one JSON line.
`--units` instead times loops of one operation each until the work budget stops them (CPU ns per work unit).

The code measured is the `tango` on PYTHONPATH (the eval runs with this process's environment), so
`PYTHONPATH=OLD python scripts/bench.py hostile` measures an older checkout with the same programs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tango

ROOT = Path(tango.__file__).resolve().parents[1]
"""The checkout whose code is measured (the one on PYTHONPATH); each eval runs from there."""
LONG = "a" * 19_500
CASES: dict[str, tuple[str, str]] = {
    # the table
    "round_digits": ("objectnav", "x = round(5, -100000000)\nstop()\n"),
    "round_digits_max": ("objectnav", "x = round(5, -9223372036854775807)\nstop()\n"),
    "str_of_nested": (
        "objectnav",
        's = "\\U000e0001" * 10000\nl = [s] * 10000\nm = [l] * 9\nt = str(m)\nstop()\n',
    ),
    "huge_answer": ("openeqa", 'return [["a" * 10000] * 10000] * 9\n'),
    "trace_flood": ("objectnav", f'for i in range(1000):\n    for j in range(99):\n        x = "{LONG}"\n'),
    "navigate_to_inf": ("objectnav", "navigate_to([float('inf'), 0, float('-inf')])\n"),
    "compare_loop": (
        "objectnav",
        (
            'a = "x" * 10000\nb = "x" * 9999 + "x"\nla = [a] * 10000\nlb = [b] * 10000\nma = [la] * 9\n'
            "mb = [lb] * 9\nfor i in range(1000):\n    for j in range(99):\n        c = ma == mb\nstop()\n"
        ),
    ),
    # more of our own
    "membership_loop": (
        "objectnav",
        (
            'a = "x" * 10000\nla = [a] * 10000\nm = [la] * 9\nfor i in range(1000):\n    for j in range(99):\n'
            '        c = ("x" * 9999 + "y") in la\nstop()\n'
        ),
    ),
    "min_of_nested": (
        "objectnav",
        (
            'a = "x" * 10000\nb = "x" * 9999 + "x"\nm = [[a] * 10000, [b] * 10000]\nfor i in range(1000):\n'
            "    for j in range(99):\n        c = min(m)\nstop()\n"
        ),
    ),
    "eval_placeholder": ("objectnav", 's = "a" * 10000\nl = [s] * 10000\nx = eval("{l} == 1")\nstop()\n'),
    "distinct_strings": (
        "objectnav",
        (
            'keep = []\nfor i in range(1000):\n    for j in range(99):\n        s = "a" * 9990 + str(i * 100 + j)\n'
            "        keep = keep + [s]\nstop()\n"
        ),
    ),
    "navigate_far": ("objectnav", "navigate_to([1e30, 0, -1e30])\nstop()\n"),
    "detect_long_label": ("objectnav", 'x = detect("chair" * 2000)\nstop()\n'),
    "long_question": ("openeqa", 'return answer("what " * 2000)\n'),
}


UNIT_LOOPS: dict[str, str] = {
    "compare_int_lists": "a = [1] * 5000\nb = [1] * 4999 + [2]\n{loop}c = a == b\n",
    "compare_float_lists": "a = [0.5] * 5000\nb = [0.5] * 4999 + [2.0]\n{loop}c = a < b\n",
    "compare_nested_lists": "a = [[1, 2], [3, 4]] * 2500\nb = [[1, 2], [3, 4]] * 2499 + [[1, 2], [3, 5]]\n{loop}c = a == b\n",
    "compare_strings": 'a = "x" * 10000\nb = "x" * 9999 + "y"\n{loop}c = a == b\n',
    "min_of_floats": "a = [0.5] * 9999 + [0.25]\n{loop}c = min(a)\n",
    "str_of_floats": "a = [0.123456789] * 700\n{loop}c = str(a)\n",
    "float_in_range": "r = range(1000000)\n{loop}c = 1.5 in r\n",
}
"""Loops of one operation each, run until the work budget stops them: CPU nanoseconds per work unit."""
LOOP = "for i in range(1000):\n    for j in range(99):\n        "


def unit_costs() -> list[dict[str, Any]]:
    """CPU time per work unit of each loop in UNIT_LOOPS, in this process (no simulator)."""
    from tango.primitives.context import AgentContext
    from tango.programs import Budget, Interpreter, Trace, parse

    rows = []
    for name, template in UNIT_LOOPS.items():
        budget = Budget(max_statements=200_000)
        program = parse(template.format(loop=LOOP))
        start = time.process_time()
        result = Interpreter().run(program, AgentContext(agent=None, budget=budget, trace=Trace()))
        cpu = time.process_time() - start
        rows.append(
            {"loop": name, "stop_reason": result.stop_reason, "work": budget.work, "statements": budget.statements,
             "cpu_s": round(cpu, 3), "ns_per_unit": round(cpu / budget.work * 1e9, 1)}
        )  # fmt: skip
    return rows


def first_instruction(task: str) -> str:
    """The instruction the first episode of `task` on the default synthetic dataset gives the agent."""
    from tango.scenes.datasets.default import ensure_default_dataset

    root = ensure_default_dataset()
    if task == "openeqa":
        return str(json.loads((root / "openeqa/val/open-eqa-v0.json").read_text())[0]["question"])
    from tango.formats.objectnav import read_episodes
    from tango.tasks.objectnav import object_instruction

    return object_instruction(read_episodes(root / "objectnav/val/val.json.gz").episodes[0].object_category)


def _tree_rss_bytes(pid: int) -> int:
    """Resident memory of `pid` and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        ppid = re.search(r"^PPid:\s+(\d+)", text, re.MULTILINE)
        vmrss = re.search(r"^VmRSS:\s+(\d+)", text, re.MULTILINE)
        proc = int(status.parent.name)
        if ppid:
            children.setdefault(int(ppid.group(1)), []).append(proc)
        rss[proc] = int(vmrss.group(1)) * 1024 if vmrss else 0
    total, todo = 0, [pid]
    while todo:
        proc = todo.pop()
        total += rss.get(proc, 0)
        todo.extend(children.get(proc, []))
    return total


def _folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def run_case(
    name: str, task: str, program: str, workdir: Path, timeout_s: float, rss_limit: int
) -> dict[str, Any]:
    """Replay `program` as the first episode of `task` in a fresh eval process; what it cost and recorded."""
    replay = workdir / f"{name}.jsonl"
    replay.write_text(json.dumps({"instruction": first_instruction(task), "program": program}) + "\n")
    run_dir = workdir / name
    time_file = workdir / f"{name}.time"
    command = [
        "/usr/bin/time", "-v", "-o", str(time_file), sys.executable, "-m", "tango.eval", f"task={task}",
        "generator=replay", f"generator.replay_path={replay}", "eval.num_episodes=1",
        f"eval.output_dir={run_dir}", "eval.progress=false", "eval.report=false",
    ]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    start = time.monotonic()
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    killed, peak_tree = "", 0
    while process.poll() is None:
        peak_tree = max(peak_tree, _tree_rss_bytes(process.pid))
        if peak_tree > rss_limit:
            killed = f"rss above {rss_limit / 2**30:.1f} GB"
        elif time.monotonic() - start > timeout_s:
            killed = f"running after {timeout_s:g} s"
        if killed:
            os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.1)
    stderr = process.communicate()[1].decode(errors="replace")
    wall = time.monotonic() - start
    max_rss = None
    if time_file.is_file():
        found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", time_file.read_text())
        max_rss = int(found.group(1)) * 1024 if found else None
    record: dict[str, Any] = {}
    results = run_dir / "episodes.jsonl"
    if results.is_file() and results.stat().st_size < 50_000_000:
        lines = results.read_text().splitlines()
        record = json.loads(lines[0]) if lines else {}
    elif results.is_file():
        record = {"failure_reason": "(episodes.jsonl too large to read back)"}
    metrics = record.get("metrics") or {}
    return {
        "case": name,
        "task": task,
        "wall_s": round(wall, 1),
        "max_rss_gb": round((max_rss or peak_tree) / 2**30, 2),
        "results_mb": round(_folder_bytes(run_dir) / 1e6, 2) if run_dir.is_dir() else 0.0,
        "exit_code": process.returncode,
        "killed": killed,
        "status": record.get("status"),
        "failure_reason": str(record.get("failure_reason"))[:200] if record else None,
        "score": metrics.get("success", metrics.get("normalised_match")),
        "stderr_tail": stderr.strip().splitlines()[-1][:200] if stderr.strip() else "",
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py hostile")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--timeout", type=float, default=120.0, help="kill a run after this many seconds")
    parser.add_argument("--rss-limit-gb", type=float, default=3.0, help="kill a run whose memory passes this")
    parser.add_argument("--keep", type=Path, default=None, help="keep the run folders here")
    parser.add_argument("--units", action="store_true", help="only the CPU cost per work unit (no episodes)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    if args.units:
        print(json.dumps({"unit_costs": unit_costs(), "load_avg_1m": [load_before, os.getloadavg()[0]]}))
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="tango-hostile-") as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for name in args.cases.split(","):
            task, program = CASES[name]
            results.append(
                run_case(name, task, program, workdir, args.timeout, int(args.rss_limit_gb * 2**30))
            )
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"cases": results, "load_avg_1m": [load_before, os.getloadavg()[0]]}))
    return 0
