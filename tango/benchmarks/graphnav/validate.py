"""Check every field and constraint of GraphNav episode files (ours or the published ones) against their mazes.

Usage: `python -m tango.benchmarks.graphnav.validate DATA_ROOT [--strict]` prints a JSON summary; exit 1 on any
problem. Constraint readings (the dataset card's, see docs/graphnav.md):
- `min_gap`: |goal_idx - start_idx| >= min_gap (index gap between start and goal on the explore path);
- `min_savings`: explore_len_steps - ideal_len_steps >= min_savings (steps the ideal path saves);
- `explore_path_len_target`: the number of nodes of explore_path;
- `state_space` key_nodes_only, `observed_graph` full_explore_path, `visibility` LFR or LFRB: a shortcut's
  ideal path lies in the published observed graph (observed.py) and is a shortest path there;
- junctions count ideal-path nodes of key-graph degree >= 3 (endpoints only when junction_include_endpoints).

Documented exception: the card's own worked example (and the published extractor, which keeps a pair only when
its ideal path has *fewer* junctions than `min_junctions_on_ideal`) has `junctions_on_ideal` 0 under
`min_junctions_on_ideal` >= 1 / `ideal_has_junction_deg_ge_3_on_key_graph: true`. Such episodes are counted
under `exceptions.card_junction_contradiction`, not passed silently and not failed; `--strict` fails them.
"""

from __future__ import annotations

import argparse
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
from tango.benchmarks.graphnav.observed import (
    OBSERVED_GRAPH,
    STATE_SPACE,
    VISIBILITY_OFFSETS,
    published_observed_graph,
    shortest_on,
)

JUNCTION_EXCEPTION = "card_junction_contradiction"
JUNCTION_EXCEPTION_REASON = (
    "junctions_on_ideal below min_junctions_on_ideal or no junction under "
    "ideal_has_junction_deg_ge_3_on_key_graph, as in the card's worked example and the published extractor"
)


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


def _published_value_problems(episode: Episode) -> list[str]:
    rules = episode.constraints
    problems = []
    if rules.state_space is not None and rules.state_space != STATE_SPACE:
        problems.append(f"state_space {rules.state_space!r} is not the card's {STATE_SPACE!r}")
    if rules.observed_graph is not None and rules.observed_graph != OBSERVED_GRAPH:
        problems.append(f"observed_graph {rules.observed_graph!r} is not the card's {OBSERVED_GRAPH!r}")
    if rules.visibility is not None and rules.visibility not in VISIBILITY_OFFSETS:
        problems.append(f"visibility {rules.visibility!r} is not one of {sorted(VISIBILITY_OFFSETS)}")
    return problems


def _observed_problems(episode: Episode, graph: KeyGraph) -> list[str]:
    """A shortcut's ideal path lies in the published observed graph and is a shortest path there."""
    rules = episode.constraints
    if episode.task != "shortcut" or rules.observed_graph != OBSERVED_GRAPH:
        return []
    visibility = rules.visibility if rules.visibility in VISIBILITY_OFFSETS else "LFR"
    seen = published_observed_graph(graph, episode.explore_path, episode.explore_arrivals, visibility)
    unseen = [edge for edge in pairwise(episode.ideal_path) if edge[1] not in seen.get(edge[0], ())]
    if unseen:
        return [f"ideal edges outside the observed graph ({visibility}): {unseen}"]
    shortest = shortest_on(seen, episode.start, episode.goal)
    if shortest is None or len(shortest) - 1 != episode.ideal_len_steps:
        return [f"ideal_len_steps {episode.ideal_len_steps} is not the observed-graph shortest"]
    return []


def junction_findings(episode: Episode, graph: KeyGraph) -> list[str]:
    """Violations of min_junctions_on_ideal / ideal_has_junction_deg_ge_3_on_key_graph (the card's exception)."""
    rules = episode.constraints
    junctions = junctions_on_path(
        graph, episode.ideal_path, include_endpoints=bool(rules.junction_include_endpoints)
    )
    findings = []
    if rules.ideal_has_junction_deg_ge_3_on_key_graph and junctions < 1:
        findings.append("ideal path has no junction of degree >= 3")
    if rules.min_junctions_on_ideal is not None and junctions < rules.min_junctions_on_ideal:
        findings.append(
            f"junctions_on_ideal {junctions} < min_junctions_on_ideal {rules.min_junctions_on_ideal}"
        )
    return findings


def _constraint_problems(episode: Episode, graph: KeyGraph) -> list[str]:
    problems = _published_value_problems(episode)
    rules = episode.constraints
    junctions = junctions_on_path(
        graph, episode.ideal_path, include_endpoints=bool(rules.junction_include_endpoints)
    )
    if junctions != episode.junctions_on_ideal:
        problems.append(f"junctions_on_ideal {episode.junctions_on_ideal} != counted {junctions}")
    if rules.ideal_is_global_shortest_on_key_graph:
        shortest = graph.distances_from(episode.start).get(episode.goal)
        if shortest != episode.ideal_len_steps:
            problems.append(f"ideal_len_steps {episode.ideal_len_steps} is not the shortest {shortest}")
    gap = abs(episode.goal_idx - episode.start_idx)
    if rules.min_gap is not None and gap < rules.min_gap:
        problems.append(f"index gap {gap} between start and goal < min_gap {rules.min_gap}")
    savings = episode.explore_len_steps - episode.ideal_len_steps
    if rules.min_savings is not None and savings < rules.min_savings:
        problems.append(f"savings {savings} steps < min_savings {rules.min_savings}")
    return problems + _observed_problems(episode, graph)


def validate_episode(episode: Episode, maze: Maze, graph: KeyGraph, strict: bool = False) -> list[str]:
    """All problems of one episode on its maze (empty when every field and constraint holds).

    The junction constraints' findings are problems only when strict (module docstring: the card's exception).
    """
    path = episode.explore_path
    if episode.maze_name != maze.name:
        return [f"maze_name {episode.maze_name!r} != maze {maze.name!r}"]
    if not path or not graph.is_walk(path):
        return ["explore_path is not a walk over adjacent key nodes"]
    problems = []
    target = episode.explore_path_len_target
    if target is not None and target != len(path):
        problems.append(f"explore_path has {len(path)} nodes, explore_path_len_target {target} (nodes)")
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
    problems += _task_problems(episode) + _constraint_problems(episode, graph)
    return problems + junction_findings(episode, graph) if strict else problems


@dataclass
class ValidationReport:
    """Counts of checked and failed episodes, the documented exceptions, and the first problems (file:line)."""

    checked: int = 0
    failed: int = 0
    by_task: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    exceptions: Counter = field(default_factory=Counter)
    exception_examples: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.checked > 0 and self.failed == 0

    def to_json(self) -> dict[str, object]:
        exceptions = {
            name: {
                "count": count,
                "reason": JUNCTION_EXCEPTION_REASON,
                "examples": self.exception_examples[:5],
            }
            for name, count in self.exceptions.items()
        }
        return {
            "checked": self.checked,
            "failed": self.failed,
            "by_task": dict(self.by_task),
            "exceptions": exceptions,
            "ok": self.ok,
            "problems": self.problems[:50],
        }


def _check(
    report: ValidationReport, where: str, episode: Episode, maze: Maze, graph: KeyGraph, strict: bool
) -> None:
    problems = validate_episode(episode, maze, graph, strict)
    if problems:
        report.failed += 1
        report.problems.extend(f"{where}: {p}" for p in problems)
        return
    findings = [] if strict else junction_findings(episode, graph)
    if findings:
        report.exceptions[JUNCTION_EXCEPTION] += 1
        report.exception_examples.extend(f"{where}: {f}" for f in findings)


def validate_dataset(
    data_root: str | Path, tasks: tuple[str, ...] = TASKS, strict: bool = False
) -> ValidationReport:
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
                except MazeFormatError as error:
                    report.failed += 1
                    report.problems.append(f"{file}:{line}: {error}")
                    continue
                _check(report, f"{file}:{line}", episode, *graphs[episode.maze_name], strict)
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.benchmarks.graphnav.validate")
    parser.add_argument("data_root")
    parser.add_argument("--strict", action="store_true", help="fail the card's junction exception too")
    args = parser.parse_args(argv)
    report = validate_dataset(args.data_root, strict=args.strict)
    print(json.dumps(report.to_json()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
