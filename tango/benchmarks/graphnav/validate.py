"""Check every constraint of GraphNav episode files (ours or the published ones) against their mazes.

Usage: `python -m tango.benchmarks.graphnav.validate DATA_ROOT` prints a JSON summary; exit 1 on any problem.
Constraint readings: min_gap bounds explore_len_steps - ideal_len_steps; min_savings bounds that gap divided by
explore_len_steps; junctions count ideal-path nodes of key-graph degree >= 3 (endpoints only when
junction_include_endpoints); `observed_graph: explored_plus_visible` requires every ideal edge to be walked or
seen during exploration (see observed.py); other observed_graph/visibility values are recorded, not checked.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from tango.benchmarks.graphnav.episodes import TASKS, Episode, EpisodeFormatError, load_episodes, path_files
from tango.benchmarks.graphnav.keygraph import (
    KeyGraph,
    arrival_directions,
    build_key_graph,
    junctions_on_path,
)
from tango.benchmarks.graphnav.maze import Maze, MazeFormatError, load_maze
from tango.benchmarks.graphnav.observed import OBSERVED_GRAPH, observed_edges


def _subpath_problems(episode: Episode) -> list[str]:
    low, high = sorted((episode.start_idx, episode.goal_idx))
    forward = episode.explore_path[low : high + 1]
    if episode.explore_subpath not in (forward, forward[::-1]):
        return [f"explore_subpath is not explore_path[{low}:{high + 1}] (either direction)"]
    return []


def _task_problems(episode: Episode) -> list[str]:
    low, high = sorted((episode.start_idx, episode.goal_idx))
    forward = episode.explore_path[low : high + 1]
    if episode.task == "repeated":
        if episode.start_idx >= episode.goal_idx or episode.ideal_path != forward:
            return ["repeated: ideal_path must be the explored subpath from start_idx < goal_idx"]
    elif episode.task == "reversed":
        if episode.start_idx <= episode.goal_idx or episode.ideal_path != forward[::-1]:
            return ["reversed: ideal_path must be the explored subpath backwards, start_idx > goal_idx"]
    elif episode.task == "shortcut" and episode.start_idx >= episode.goal_idx:
        return ["shortcut: start_idx must precede goal_idx"]
    return []


def _constraint_problems(episode: Episode, graph: KeyGraph) -> list[str]:
    problems = []
    rules = episode.constraints
    include_endpoints = bool(rules.junction_include_endpoints)
    junctions = junctions_on_path(graph, episode.ideal_path, include_endpoints=include_endpoints)
    if junctions != episode.junctions_on_ideal:
        problems.append(f"junctions_on_ideal {episode.junctions_on_ideal} != counted {junctions}")
    if rules.ideal_is_global_shortest_on_key_graph:
        shortest = graph.distances_from(episode.start).get(episode.goal)
        if shortest != episode.ideal_len_steps:
            problems.append(f"ideal_len_steps {episode.ideal_len_steps} is not the shortest {shortest}")
    if rules.ideal_has_junction_deg_ge_3_on_key_graph and junctions < 1:
        problems.append("ideal path has no junction of degree >= 3")
    if rules.min_junctions_on_ideal is not None and junctions < rules.min_junctions_on_ideal:
        problems.append(
            f"junctions_on_ideal {junctions} < min_junctions_on_ideal {rules.min_junctions_on_ideal}"
        )
    gap = episode.explore_len_steps - episode.ideal_len_steps
    if rules.min_gap is not None and gap < rules.min_gap:
        problems.append(f"gap {gap} < min_gap {rules.min_gap}")
    if rules.min_savings is not None and episode.explore_len_steps > 0:
        savings = gap / episode.explore_len_steps
        if savings < rules.min_savings - 1e-9:
            problems.append(f"savings {savings:.3f} < min_savings {rules.min_savings}")
    if rules.observed_graph == OBSERVED_GRAPH:
        seen = observed_edges(graph, episode.explore_path)
        unseen = [e for e in pairwise(episode.ideal_path) if frozenset(e) not in seen]
        if unseen:
            problems.append(f"ideal edges never walked or seen during exploration: {unseen}")
    return problems


def validate_episode(episode: Episode, maze: Maze, graph: KeyGraph) -> list[str]:
    """All problems of one episode on its maze (empty when every field and constraint holds)."""
    path = episode.explore_path
    if episode.maze_name != maze.name:
        return [f"maze_name {episode.maze_name!r} != maze {maze.name!r}"]
    if not path or not graph.is_walk(path):
        return ["explore_path is not a walk over adjacent key nodes"]
    problems = []
    if episode.explore_arrivals != arrival_directions(path):
        problems.append(f"explore_arrivals {episode.explore_arrivals} != {arrival_directions(path)}")
    if not (0 <= episode.start_idx < len(path) and 0 <= episode.goal_idx < len(path)):
        return problems + ["start_idx/goal_idx outside explore_path"]
    if episode.start != path[episode.start_idx] or episode.goal != path[episode.goal_idx]:
        problems.append("start/goal differ from explore_path[start_idx]/[goal_idx]")
    if episode.start == episode.goal:
        problems.append("start equals goal")
    problems += _subpath_problems(episode)
    if episode.explore_len_steps != len(episode.explore_subpath) - 1:
        problems.append(
            f"explore_len_steps {episode.explore_len_steps} != {len(episode.explore_subpath) - 1}"
        )
    ideal = episode.ideal_path
    if not ideal or ideal[0] != episode.start or ideal[-1] != episode.goal or not graph.is_walk(ideal):
        return problems + ["ideal_path is not a key-node walk from start to goal"]
    if episode.ideal_len_steps != len(ideal) - 1:
        problems.append(f"ideal_len_steps {episode.ideal_len_steps} != {len(ideal) - 1}")
    return problems + _task_problems(episode) + _constraint_problems(episode, graph)


@dataclass
class ValidationReport:
    """Counts of checked and failed episodes, with the first problems found (file:line: reason)."""

    checked: int = 0
    failed: int = 0
    by_task: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.checked > 0 and self.failed == 0

    def to_json(self) -> dict[str, object]:
        return {
            "checked": self.checked,
            "failed": self.failed,
            "by_task": dict(self.by_task),
            "ok": self.ok,
            "problems": self.problems[:50],
        }


def validate_dataset(data_root: str | Path, tasks: tuple[str, ...] = TASKS) -> ValidationReport:
    """Validate every `paths/{task}/*.jsonl` under data_root against `mazes/{maze}.txt`."""
    root = Path(data_root)
    report = ValidationReport()
    graphs: dict[str, tuple[Maze, KeyGraph]] = {}
    for task in tasks:
        for file in path_files(root, task):
            try:
                episodes = load_episodes(file, task)
            except EpisodeFormatError as error:
                report.failed += 1
                report.problems.append(str(error))
                continue
            for line, episode in enumerate(episodes, start=1):
                report.checked += 1
                report.by_task[task] += 1
                try:
                    if episode.maze_name not in graphs:
                        maze = load_maze(root / "mazes" / f"{episode.maze_name}.txt")
                        graphs[episode.maze_name] = (maze, build_key_graph(maze))
                    problems = validate_episode(episode, *graphs[episode.maze_name])
                except MazeFormatError as error:
                    problems = [str(error)]
                if problems:
                    report.failed += 1
                    report.problems.extend(f"{file}:{line}: {p}" for p in problems)
    return report


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m tango.benchmarks.graphnav.validate DATA_ROOT\n")
        return 2
    report = validate_dataset(argv[0])
    print(json.dumps(report.to_json()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
