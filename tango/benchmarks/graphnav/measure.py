"""Measure GraphNav agents on a generated set: SR per task and maze size, program agent beside the random baseline.

Usage: `python -m tango.benchmarks.graphnav.measure [--mazes-per-size 2] [--episodes-per-task 5]
[--condition C3] [--seed 0] [--agents program random]`; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import replace

from tango.benchmarks.graphnav.config import GenerateConfig, GraphNavConfig
from tango.benchmarks.graphnav.generate import SIZES
from tango.benchmarks.graphnav.runner import GraphNavRunner, episode_result, iter_episodes, maze_size


def measure(config: GraphNavConfig, agents: list[str]) -> dict[str, object]:
    """Per agent and task: SR per maze size, overall SR and the task's path metric (pfs or spl)."""
    episodes = list(iter_episodes(config))
    results: dict[str, object] = {"episodes": len(episodes), "condition": config.condition}
    for agent in agents:
        started = time.perf_counter()
        runner = GraphNavRunner(replace(config, agent=agent))
        by_size: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        path_metric: dict[str, list[float]] = defaultdict(list)
        for index, episode in enumerate(episodes):
            env, outcome = runner.play(episode, seed=index)
            metrics = episode_result(episode, env, outcome, config.condition).metrics
            by_size[episode.task][maze_size(episode)].append(metrics["success"])
            path_metric[episode.task].append(metrics.get("pfs", metrics.get("spl", 0.0)))
        runner.close()
        summary: dict[str, object] = {}
        for task, sizes in by_size.items():
            everything = [value for values in sizes.values() for value in values]
            summary[task] = {
                "sr": round(sum(everything) / len(everything), 3),
                "pfs" if task != "shortcut" else "spl": round(
                    sum(path_metric[task]) / len(path_metric[task]), 3
                ),
                "sr_by_size": {str(size): round(sum(v) / len(v), 3) for size, v in sorted(sizes.items())},
            }
        results[agent] = summary
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
                sizes=list(SIZES),
                mazes_per_size=args.mazes_per_size,
                episodes_per_task=args.episodes_per_task,
                seed=args.seed,
            ),
        )
        print(json.dumps(measure(config, args.agents)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
