"""Benchmark of the evaluation harness: `python scripts/bench.py eval [--task goat] [--episodes N] ...`.

Prints one JSON line with
- `steps_per_s`: agent steps per second of the full loop on `--task` (default goat: render, maps, oracle
  perception, controller, interpreter) with one worker, over the episodes' own time (setup excluded;
  `steps_per_s_with_setup` includes loading the scene data and models), or the reason it could not run;
- `episodes_per_hour_1w`, `episodes_per_hour_2w`, `workers_speedup`: the same episodes on `--pool-task`
  (default the fake task, whose steps burn `--step-cpu-ms` of CPU) with 1 and with 2 worker processes,
  wall time including the pool's start-up; `episodes_in_flight_2w` is the 2-worker run's summed episode time
  over its wall time (2.0: both workers busy throughout). The speed-up needs idle cores: see `load_avg_1m`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf
from rich.console import Console

from tango.harness.run import run_evaluation

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
OTHER_GROUP_DEFAULTS = {
    "sim": "embedded",
    "perception": "oracle",
    "generator": "template",
    "agent": "default",
}


def _config(task: str, output_dir: Path, overrides: list[str]) -> dict[str, Any]:
    missing = [
        f"~{g}" for g, name in OTHER_GROUP_DEFAULTS.items() if not (CONFIG_DIR / g / f"{name}.yaml").is_file()
    ]
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=[
                f"task={task}",
                *missing,
                f"eval.output_dir={output_dir}",
                "eval.progress=false",
                *overrides,
            ],
        )
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)
    return {str(key): value for key, value in container.items()}


def _timed_run(task: str, output_dir: Path, overrides: list[str]) -> tuple[float, dict[str, Any]]:
    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115  (lives as long as the run)
    start = time.perf_counter()
    outcome = run_evaluation(_config(task, output_dir, overrides), console=quiet, table_console=quiet)
    return time.perf_counter() - start, outcome.summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench.py eval")
    parser.add_argument("--task", default="goat", help="task whose full agent loop is timed (default goat)")
    parser.add_argument("--episodes", type=int, default=5, help="episodes of --task to time")
    parser.add_argument("--pool-task", default="fake", help="task for the 1- vs 2-worker comparison")
    parser.add_argument("--pool-episodes", type=int, default=24)
    parser.add_argument("--step-cpu-ms", type=float, default=20.0, help="CPU per step of the fake task")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    logging.basicConfig(level=logging.WARNING)
    result: dict[str, Any] = {"benchmark": "eval", "task": args.task, "pool_task": args.pool_task}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            seconds, summary = _timed_run(
                args.task, Path(tmp) / "loop", [f"eval.num_episodes={args.episodes}"]
            )
            result.update(
                steps_per_s=summary["steps_per_s_per_worker"],
                steps_per_s_with_setup=summary["total_steps"] / seconds,
                loop_steps=summary["total_steps"],
                loop_episodes=summary["num_episodes"],
                loop_errors=summary["num_errors"],
            )
        except Exception as error:  # noqa: BLE001  (a task not wired yet is a reported result, not a crash)
            result["steps_per_s"] = None
            result["steps_per_s_error"] = f"{type(error).__name__}: {error}"
        pool_overrides = [f"eval.num_episodes={args.pool_episodes}"]
        if args.pool_task == "fake":
            pool_overrides += [
                f"task.step_cpu_ms={args.step_cpu_ms}",
                f"task.num_available={args.pool_episodes}",
            ]
        rates, busy = {}, {}
        for workers in (1, 2):
            seconds, summary = _timed_run(
                args.pool_task, Path(tmp) / f"pool{workers}", [*pool_overrides, f"eval.num_workers={workers}"]
            )
            rates[workers] = 3600.0 * summary["num_episodes"] / seconds
            busy[workers] = summary["episode_time_s"] / seconds
        result.update(
            episodes_per_hour_1w=rates[1],
            episodes_per_hour_2w=rates[2],
            workers_speedup=rates[2] / rates[1],
            episodes_in_flight_2w=busy[2],
            cpu_count=os.cpu_count(),
            load_avg_1m=os.getloadavg()[0],
        )
    print(json.dumps(result))
    return 0
