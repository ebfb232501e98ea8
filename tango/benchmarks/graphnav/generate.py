"""Generate GraphNav mazes (mazegen.py) and episodes in the dataset's own formats (mazes/*.txt, paths/{task}/*.jsonl).

Episodes: an exploration walk of exactly `explore_path_len_target` key nodes (self-avoiding; the published
sampler only forbids immediate backtracking), and a start/goal pair on it at least `min_gap` indices apart.
Repeated and reversed trips retrace the explored subpath; a shortcut's ideal path is a shortest path of the
published observed graph (observed.py) that is also a global key-graph shortest path, saves at least
`min_savings` steps over the explored subpath, and uses only corridors our agent's own views show. Each line
carries the card's constraint values (`key_nodes_only`, `full_explore_path`, `LFR`) and is validated before it
is written. No two episodes of a task on a maze share (walk, start_idx, goal_idx).

Usage: `python -m tango.benchmarks.graphnav.generate OUT_DIR [--preset card] [--sizes 5 7 9]
[--mazes-per-size 2] [--episodes-per-maze 3] [--seed 0]`; `--preset card` writes the card's scale (420 mazes,
about 90 paths per maze; docs/graphnav.md).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path

import numpy as np

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.episodes import TASKS, Constraints, Episode, write_episodes
from tango.benchmarks.graphnav.keygraph import (
    Cell,
    KeyGraph,
    arrival_directions,
    build_key_graph,
    direction_between,
)
from tango.benchmarks.graphnav.maze import Maze, write_maze
from tango.benchmarks.graphnav.mazegen import (
    SIZES,
    GenerationError,
    MazeGenConfig,
    check_sizes,
    generate_maze,
)
from tango.benchmarks.graphnav.observed import (
    OBSERVED_GRAPH,
    STATE_SPACE,
    VISIBILITY,
    agent_observed_edges,
    published_observed_graph,
    shortest_on,
    walk_headings,
)
from tango.benchmarks.graphnav.validate import validate_episode

log = logging.getLogger(__name__)
# The card preset: 420 mazes. Mazes are named by their node counts, which leaves about 13-18 distinct 5x5 layouts,
# so the split grows with size (the card's own per-size split is not stated in what we could read of it).
CARD_MAZES_PER_SIZE = {5: 12, 7: 54, 9: 62, 11: 70, 13: 72, 15: 75, 17: 75}
# Three loop densities (share of the closed lattice walls opened after the carve), equal thirds per size.
CARD_DENSITIES = ((0.0, 0.15), (0.15, 0.35), (0.35, 0.6))
CARD_EPISODES_PER_TASK = 31


@dataclass
class EpisodeGenConfig:
    """How exploration walks and the three tasks' episodes are drawn (constraint values are written per line)."""

    episodes_per_task: int = 3
    min_gap: int = 2
    shortcut_min_savings: int = 1
    attempts_per_episode: int = 60
    tasks: tuple[str, ...] = TASKS

    def explore_len_target(self, size: int) -> int:
        """Nodes of the exploration walk: 5 at 5x5 (the card's example), one more per size step, 11 at 17x17."""
        return 5 + (size - 5) // 2

    def min_junctions(self, task: str, size: int) -> int:
        return 0 if task == "shortcut" or size < 9 else 1


def random_walk(graph: KeyGraph, nodes: int, rng: np.random.Generator) -> list[Cell] | None:
    """A self-avoiding walk of exactly `nodes` key nodes from a random start, or None if it got stuck."""
    starts = [node for node in graph.nodes if graph.degree(node) >= 1]
    path = [starts[int(rng.integers(len(starts)))]]
    while len(path) < nodes:
        options = [n for n in graph.neighbors[path[-1]].values() if n not in path]
        if not options:
            return None
        path.append(options[int(rng.integers(len(options)))])
    return path


def _constraints(task: str, size: int, config: EpisodeGenConfig) -> Constraints:
    min_junctions = config.min_junctions(task, size)
    return Constraints(
        state_space=STATE_SPACE,
        observed_graph=OBSERVED_GRAPH,
        visibility=VISIBILITY,
        min_gap=config.min_gap,
        min_savings=config.shortcut_min_savings if task == "shortcut" else 0,
        min_junctions_on_ideal=min_junctions,
        ideal_is_global_shortest_on_key_graph=task == "shortcut",
        ideal_has_junction_deg_ge_3_on_key_graph=min_junctions >= 1,
        junction_include_endpoints=False,
    )


def _start_heading_ok(episode: Episode, graph: KeyGraph) -> bool:
    """The first ideal move is not straight behind the start heading (the agent cannot step backwards)."""
    if episode.task == "reversed":
        return True
    heading = walk_headings(graph, episode.explore_path)[episode.start_idx]
    return direction_between(episode.ideal_path[0], episode.ideal_path[1]) != (heading + 2) % 4


def _shortcut_ideal(graph: KeyGraph, walk: list[Cell], start_idx: int, goal_idx: int) -> list[Cell] | None:
    """The observed-graph shortest path, when it is a global shortest one our agent can see (module docstring)."""
    observed = published_observed_graph(graph, walk, arrival_directions(walk))
    ideal = shortest_on(observed, walk[start_idx], walk[goal_idx])
    if ideal is None or len(ideal) - 1 != graph.distances_from(walk[start_idx]).get(walk[goal_idx]):
        return None
    seen = agent_observed_edges(graph, walk)
    return ideal if all(frozenset(edge) in seen for edge in pairwise(ideal)) else None


def draw_episodes(
    maze: Maze, graph: KeyGraph, task: str, count: int, config: EpisodeGenConfig, rng: np.random.Generator
) -> list[Episode]:
    """Up to count valid, distinct episodes of task on maze."""
    constraints = _constraints(task, maze.size, config)
    nodes = config.explore_len_target(maze.size)
    episodes: list[Episode] = []
    signatures: set[tuple[tuple[Cell, ...], int, int]] = set()
    for _ in range(count * config.attempts_per_episode):
        if len(episodes) >= count:
            break
        walk = random_walk(graph, nodes, rng)
        if walk is None:
            continue
        low = int(rng.integers(0, nodes - config.min_gap))
        high = int(rng.integers(low + config.min_gap, nodes))
        start_idx, goal_idx = (high, low) if task == "reversed" else (low, high)
        signature = (tuple(walk), start_idx, goal_idx)
        if signature in signatures:
            continue
        ideal = _shortcut_ideal(graph, walk, start_idx, goal_idx) if task == "shortcut" else None
        if task == "shortcut" and ideal is None:
            continue
        episode = build_episode(
            task,
            maze.name,
            f"{maze.name}_{task}_{len(episodes)}",
            graph,
            walk,
            start_idx,
            goal_idx,
            constraints,
            nodes,
            ideal,
        )
        if _start_heading_ok(episode, graph) and not validate_episode(episode, maze, graph, strict=True):
            signatures.add(signature)
            episodes.append(episode)
    return episodes


@dataclass
class DatasetSpec:
    """Mazes per size (and density levels) and the generation controls of one synthetic GraphNav set."""

    mazes_per_size: dict[int, int] = field(default_factory=lambda: {size: 2 for size in SIZES})
    seed: int = 0
    maze: MazeGenConfig = field(default_factory=MazeGenConfig)
    densities: tuple[tuple[float, float], ...] = ()
    episodes: EpisodeGenConfig = field(default_factory=EpisodeGenConfig)
    min_episodes_per_task: int | None = None  # a maze is kept with fewer than episodes_per_task down to this

    def __post_init__(self) -> None:
        check_sizes(tuple(self.mazes_per_size), "DatasetSpec.mazes_per_size")


def card_spec(seed: int = 0) -> DatasetSpec:
    """The card's scale: 420 mazes over the odd sizes 5-17 in three densities, up to 30 paths per task each."""
    return DatasetSpec(
        mazes_per_size=dict(CARD_MAZES_PER_SIZE),
        seed=seed,
        densities=CARD_DENSITIES,
        episodes=EpisodeGenConfig(episodes_per_task=CARD_EPISODES_PER_TASK),
        min_episodes_per_task=1,
    )


def _maze_config(spec: DatasetSpec, index: int) -> MazeGenConfig:
    if not spec.densities:
        return spec.maze
    return replace(spec.maze, loop_fraction=spec.densities[index % len(spec.densities)])


def generate_dataset(root: str | Path, spec: DatasetSpec) -> dict[str, int]:
    """Write mazes and path files under root; returns the episode count per task (and `mazes`)."""
    root = Path(root)
    rng = np.random.default_rng(spec.seed)
    counts = {task: 0 for task in spec.episodes.tasks}
    wanted = spec.episodes.episodes_per_task
    least = wanted if spec.min_episodes_per_task is None else spec.min_episodes_per_task
    names: set[str] = set()
    for size, mazes in spec.mazes_per_size.items():
        made = 0
        for _ in range(max(spec.maze.max_attempts, 50 * mazes)):
            if made >= mazes:
                break
            maze = generate_maze(size, _maze_config(spec, made), rng)
            if maze.name in names:
                continue
            graph = build_key_graph(maze)
            drawn = {
                t: draw_episodes(maze, graph, t, wanted, spec.episodes, rng) for t in spec.episodes.tasks
            }
            if any(len(episodes) < least for episodes in drawn.values()):
                continue
            names.add(maze.name)
            made += 1
            write_maze(maze, root / "mazes")
            for task, episodes in drawn.items():
                write_episodes(episodes, root / "paths" / task / f"{maze.name}.jsonl")
                counts[task] += len(episodes)
        if made < mazes:
            raise GenerationError(f"only {made} of {mazes} {size}x{size} mazes had valid episodes")
    log.info("wrote %s episodes under %s", counts, root)
    return {**counts, "mazes": len(names)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.benchmarks.graphnav.generate")
    parser.add_argument("out_dir")
    parser.add_argument("--preset", choices=["card"], help="the card's scale (other size options ignored)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--mazes-per-size", type=int, default=2)
    parser.add_argument("--episodes-per-maze", type=int, default=3, help="episodes per task and maze")
    parser.add_argument("--corridor-bias", type=float, default=0.5)
    parser.add_argument("--max-loops", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        if args.preset == "card":
            spec = card_spec(args.seed)
        else:
            spec = DatasetSpec(
                mazes_per_size={size: args.mazes_per_size for size in args.sizes},
                seed=args.seed,
                maze=MazeGenConfig(corridor_bias=args.corridor_bias, max_loops=args.max_loops),
                episodes=EpisodeGenConfig(episodes_per_task=args.episodes_per_maze),
            )
        counts = generate_dataset(args.out_dir, spec)
    except (GenerationError, ValueError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    total = sum(counts[task] for task in TASKS if task in counts)
    print({**counts, "paths": total, "wall_s": round(time.perf_counter() - started, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
