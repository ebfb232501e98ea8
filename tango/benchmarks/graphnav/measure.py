"""Measure GraphNav agents on a generated set: SR, PFS, SPL and DPS per task, SR per maze size, program agent
beside the random baseline; episodes the run cannot play are errors, counted by cause and scored as failures.

Usage: `python -m tango.benchmarks.graphnav.measure [--mazes-per-size 2] [--episodes-per-task 5]
[--condition C3] [--seed 0] [--agents program random] [--data-root DIR]`; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import replace

from tango.benchmarks.graphnav.availability import EpisodeUnavailable
from tango.benchmarks.graphnav.config import GenerateConfig, GraphNavConfig
from tango.benchmarks.graphnav.metrics import failure_metrics
from tango.benchmarks.graphnav.runner import GraphNavRunner, episode_result, iter_episodes, maze_size

TASK_METRICS = {"repeated": ("sr", "pfs"), "reversed": ("sr", "pfs"), "shortcut": ("sr", "spl", "dps")}


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def measure(config: GraphNavConfig, agents: list[str]) -> dict[str, object]:
    """Per agent and task: the task's metrics (means over all its episodes), SR per size, errors by cause."""
    episodes = list(iter_episodes(config))
    results: dict[str, object] = {"episodes": len(episodes), "condition": config.condition}
    for agent in agents:
        started = time.perf_counter()
        runner = GraphNavRunner(replace(config, agent=agent))
        values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        by_size: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        errors: Counter[str] = Counter()
        for index, episode in enumerate(episodes):
            try:
                env, outcome = runner.play(episode, seed=index)
                metrics = episode_result(episode, env, outcome, config.condition).metrics
            except EpisodeUnavailable as error:
                errors[type(error).__name__] += 1
                metrics = failure_metrics(episode.task)
            by_size[episode.task][maze_size(episode)].append(metrics["success"])
            values[episode.task]["sr"].append(metrics["success"])
            for name in ("pfs", "spl", "dps"):
                if name in metrics:
                    values[episode.task][name].append(metrics[name])
        runner.close()
        summary: dict[str, object] = {}
        for task, sizes in by_size.items():
            row: dict[str, object] = {name: _mean(values[task][name]) for name in TASK_METRICS[task]}
            row["sr_by_size"] = {str(size): _mean(v) for size, v in sorted(sizes.items())}
            summary[task] = row
        results[agent] = summary
        results[f"{agent}_errors"] = dict(errors)
        results[f"{agent}_wall_s"] = round(time.perf_counter() - started, 1)
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.benchmarks.graphnav.measure")
    parser.add_argument("--mazes-per-size", type=int, default=2)
    parser.add_argument("--episodes-per-task", type=int, default=5)
    parser.add_argument("--condition", default="C3")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-root", default="", help="existing data; default: a fresh generated set")
    parser.add_argument("--agents", nargs="+", default=["program", "random"])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        config = GraphNavConfig(
            data_root=args.data_root or f"{scratch}/graphnav",
            condition=args.condition,
            generate=GenerateConfig(
                mazes_per_size=args.mazes_per_size, episodes_per_task=args.episodes_per_task, seed=args.seed
            ),
        )
        print(json.dumps(measure(config, args.agents)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
