"""Benchmark of the agent loop against the bare environment, in one run: `python scripts/bench.py eval [...]`.

Prints one JSON line with
- `loop_steps_per_s`: agent steps per second of the full loop on `--task` (default goat: render, maps, oracle
  perception, controller, interpreter) in this process with one worker, over the episodes' own time, after
  `--warmup` untimed episodes (imports and model loads belong to start-up);
  `loop_cpu_ms_per_step` and `loop_cpu_per_wall` (CPU of the whole process, rasteriser threads included, over
  wall time: above 1 means threads spinning or working beside the main one);
- `env_steps_per_s` / `env_cpu_ms_per_step`: habitat-lab `Env.step` on TangoSim-v0 with the same camera and
  dataset, measured in the same process half before and half after the loop, and `loop_vs_env` (steps/s ratio)
  with `loop_vs_env_cpu` (the same ratio from CPU time, which a busy machine disturbs less);
- `components_ms_per_step`: CPU ms per loop step of render, read_back, simulator, perception, maps, planning and
  interpreter (see _components.py), plus `episode_setup_ms_per_step` (scene and perception set-up, generation,
  scoring);
- the loop runs with `--perception` (default `oracle`, whatever the eval default is, so that figures stay
  comparable; `--perception ''` takes the eval default); the workers comparison and start-up use the defaults;
- `agent_cpu_ms_per_step`: the agent's own CPU per step (perception + maps + planning + interpreter, everything
  but the simulator), against `agent_cpu_target_ms` (issue 26: at most 2.0 ms on the 2-core development
  machine), and `agent_only_steps_per_s`, the steps per second of one worker that only the agent would allow;
- with `--pool-episodes N`: `--pool-task` episodes per hour with each of `--workers` (e.g. 1 and auto: the
  worker count it resolved to is `workers_used`), each setting's speed-up over the first, the CPU seconds per
  wall second of each busy process (`cpu_per_wall_per_worker`: about 1 without spinning threads), and whether
  every setting recorded the same results (`results_identical`: metrics, steps, subtasks, programs);
- with `--startup`: `startup_s`, the wall time from launching `python -m tango.eval task=TASK` to its first
  simulator step (`startup_cpu_s`: the CPU the process used until then), for each of `--workers`;
- `load_avg_1m` before and after: on a busy machine the wall-clock rates drop, the CPU times much less.
The code measured is the `tango` on PYTHONPATH, so `PYTHONPATH=OLD python scripts/bench.py eval` times an older
checkout with this script.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _components import COMPONENTS, LOOP_COMPONENTS, component_timers
from sim import env_step_times

import tango
import tango.eval  # (importing the entry point registers the config schemas with hydra)
from tango.harness.run import run_evaluation

ROOT = Path(tango.__file__).resolve().parents[1]
"""The checkout whose code is measured (the one on PYTHONPATH): this script can time an older checkout."""
CONFIG_DIR = ROOT / "configs"
RESULT_KEYS = ("metrics", "num_steps", "subtasks", "failure_reason", "program", "status")
AGENT_COMPONENTS = ("perception", "maps", "planning", "interpreter")
"""The agent's own share of the loop (the rest is the simulator: render, read_back, simulator)."""
AGENT_CPU_TARGET_MS = 2.0
"""Issue 26: the agent's CPU per step at most this, measured here (2 cores, llvmpipe)."""


def _config(task: str, output_dir: Path, overrides: list[str]) -> dict[str, Any]:
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=[f"task={task}", f"eval.output_dir={output_dir}", "eval.progress=false", *overrides],
        )
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)
    return {str(key): value for key, value in container.items()}


def _quiet_run(config: dict[str, Any]) -> dict[str, Any]:
    from tango.scenes.datasets.default import ensure_default_dataset

    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115  (lives as long as the run)
    ensure_default_dataset()  # (the entry point's step: the task loaders only find the dataset)
    return run_evaluation(config, console=quiet, table_console=quiet).summary


def _env_steps(config: dict[str, Any], steps: int) -> tuple[float, float]:
    """(wall s, CPU s) of `steps` bare Env.step calls on the default dataset with the run's camera."""
    from tango.scenes.datasets.default import ensure_default_dataset
    from tango.sim.habitat_env import sim_config_from_dict

    return env_step_times(ensure_default_dataset(), sim_config_from_dict(dict(config["sim"])), steps)


def _load_sentence_model() -> None:
    """Load the packaged MiniLM into this process (a model load is start-up: with the text embeddings of the
    warm-up on disk, the loop would otherwise load it at its first new batch of texts)."""
    try:
        from tango.perception.models import placement
        from tango.perception.text_similarity import load_sentence_model
    except ImportError:  # an older checkout: its warm-up episode loaded the model
        return
    load_sentence_model("", placement("cpu", half=False))


def _loop(
    task: str, episodes: int, warmup: int, env_steps: int, tmp: Path, perception: str
) -> dict[str, Any]:
    chosen = [f"perception={perception}"] if perception else []
    if warmup > 0:  # imports and model loads are start-up (measured by --startup), not the loop
        _quiet_run(
            _config(task, tmp / "warmup", [f"eval.num_episodes={warmup}", "eval.num_workers=1", *chosen])
        )
        _load_sentence_model()
    config = _config(task, tmp / "loop", [f"eval.num_episodes={episodes}", "eval.num_workers=1", *chosen])
    wall_a, cpu_a = _env_steps(config, env_steps // 2)
    with component_timers() as times:
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        summary = _quiet_run(config)
        run_wall, run_cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    wall_b, cpu_b = _env_steps(config, env_steps - env_steps // 2)
    steps = int(summary["total_steps"])
    loop_cpu = sum(times.cpu.values())
    loop_wall = sum(times.wall.values())
    env_rate = env_steps / (wall_a + wall_b)
    env_cpu_ms = (cpu_a + cpu_b) / env_steps * 1e3
    loop_rate = float(summary["steps_per_s_per_worker"])
    agent_ms = sum(times.cpu[name] for name in AGENT_COMPONENTS) / steps * 1e3
    return {
        "loop_steps_per_s": round(loop_rate, 1),
        "loop_cpu_ms_per_step": round(loop_cpu / steps * 1e3, 3),
        "loop_cpu_per_wall": round(loop_cpu / loop_wall, 3),
        "env_steps_per_s": round(env_rate, 1),
        "env_cpu_ms_per_step": round(env_cpu_ms, 3),
        "loop_vs_env": round(loop_rate / env_rate, 3),
        "loop_vs_env_cpu": round(env_cpu_ms / (loop_cpu / steps * 1e3), 3),
        "components_ms_per_step": {name: round(times.cpu[name] / steps * 1e3, 3) for name in LOOP_COMPONENTS},
        "agent_cpu_ms_per_step": round(agent_ms, 3),
        "agent_cpu_target_ms": AGENT_CPU_TARGET_MS,
        "agent_only_steps_per_s": round(1e3 / agent_ms, 1) if agent_ms > 0 else None,
        "episode_setup_ms_per_step": round(times.cpu["episode_setup"] / steps * 1e3, 3),
        "components_wall_ms_per_step": {
            name: round(times.wall[name] / steps * 1e3, 3) for name in COMPONENTS
        },
        "components_missing": times.missing,
        "loop_steps": steps,
        "loop_episodes": summary["num_episodes"],
        "loop_errors": summary["num_errors"],
        "run_wall_s": round(run_wall, 2),
        "run_cpu_s": round(run_cpu, 2),
        "env_steps": env_steps,
    }


def _results(run_dir: Path) -> dict[str, Any]:
    """episode id -> the results fields that must not depend on the worker count."""
    lines = (run_dir / "episodes.jsonl").read_text().splitlines()
    return {
        record["episode_id"]: {key: record.get(key) for key in RESULT_KEYS}
        for record in map(json.loads, lines)
    }


def _pool(task: str, episodes: int, workers: list[str], tmp: Path) -> dict[str, Any]:
    """Episodes per hour for each workers setting, the CPU each busy process used per wall second, and whether
    every setting recorded the first setting's results."""
    rates: dict[str, float] = {}
    cpu_per_wall: dict[str, float] = {}
    used: dict[str, int] = {}
    results: dict[str, dict[str, Any]] = {}
    for setting in workers:
        run_dir = tmp / f"pool_{setting}"
        config = _config(task, run_dir, [f"eval.num_episodes={episodes}", f"eval.num_workers={setting}"])
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        start, start_cpu = time.perf_counter(), time.process_time()
        summary = _quiet_run(config)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        count = int(summary["num_workers"])
        if count == 1:  # the episodes ran in this process
            cpu = time.process_time() - start_cpu
        else:  # in pool workers (children, waited for when the pool shut down); this process only waited
            cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        rates[setting] = 3600.0 * summary["num_episodes"] / wall
        cpu_per_wall[setting] = cpu / (wall * count)
        used[setting] = count
        results[setting] = _results(run_dir)
    first = rates[workers[0]]
    return {
        "pool_task": task,
        "pool_episodes": episodes,
        "workers_used": used,
        "episodes_per_hour": {k: round(v, 1) for k, v in rates.items()},
        "speedup_over_first": {k: round(v / first, 3) for k, v in rates.items()},
        "cpu_per_wall_per_worker": {k: round(v, 3) for k, v in cpu_per_wall.items()},
        "results_identical": all(found == results[workers[0]] for found in results.values()),
    }


def _startup(task: str, setting: str, tmp: Path) -> dict[str, float]:
    """Wall and CPU seconds from launching the main command to its first simulator step."""
    command = [
        sys.executable, str(Path(__file__).resolve().parent / "_first_step.py"), f"task={task}",
        "eval.num_episodes=1", f"eval.num_workers={setting}", f"eval.output_dir={tmp / f'startup_{setting}'}",
        "eval.progress=false",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    launched = time.time()
    child = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("FIRST_STEP "):
                _, when, cpu = line.split()
                return {"startup_s": round(float(when) - launched, 2), "startup_cpu_s": round(float(cpu), 2)}
        raise RuntimeError(f"the run ended without a step (exit {child.wait()})")
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench.py eval", description=__doc__)
    parser.add_argument("--task", default="goat", help="task whose agent loop is timed (default goat)")
    parser.add_argument("--episodes", type=int, default=5, help="episodes of --task in the loop measurement")
    parser.add_argument("--warmup", type=int, default=1, help="episodes run first, untimed (imports, models)")
    parser.add_argument(
        "--env-steps", type=int, default=600, help="bare Env.step calls (half before, half after)"
    )
    parser.add_argument(
        "--perception",
        default="oracle",
        help="perception preset of the loop measurement (default oracle, as the issue-26 figures; '' for the "
        "eval default)",
    )
    parser.add_argument("--pool-task", default="goat", help="task for the workers comparison")
    parser.add_argument("--pool-episodes", type=int, default=0, help="episodes per workers setting (0: skip)")
    parser.add_argument("--workers", default="1,auto", help="comma-separated eval.num_workers settings")
    parser.add_argument("--startup", action="store_true", help="time the main command to its first step")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    workers = args.workers.split(",")
    result: dict[str, Any] = {
        "benchmark": "eval", "task": args.task, "perception": args.perception or "eval default",
        "load_avg_1m_start": os.getloadavg()[0],
    }  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="tango-bench-eval-") as name:
        tmp = Path(name)
        if args.episodes > 0:
            result.update(_loop(args.task, args.episodes, args.warmup, args.env_steps, tmp, args.perception))
        if args.pool_episodes > 0:
            result.update(_pool(args.pool_task, args.pool_episodes, workers, tmp))
        if args.startup:
            result["startup"] = {setting: _startup(args.task, setting, tmp) for setting in workers}
    result.update(cpu_count=os.cpu_count(), load_avg_1m_end=os.getloadavg()[0])
    print(json.dumps(result))
    return 0
