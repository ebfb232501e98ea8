"""Generate GraphNav mazes and episodes in the dataset's own formats (mazes/*.txt, paths/{task}/*.jsonl).

Mazes: a growing-tree carve on a lattice of cells two grid units apart; each step extends the newest cell with
probability `corridor_bias` (long corridors, depth-first) and a random frontier cell otherwise (Prim-style
branching). Then `loops` extra walls between carved cells are opened (bounded by min/max_loops), and mazes whose
junction count falls outside [min_junctions, max_junctions] are redrawn. The name is
`Maze_{S}x{S}_D{d}_T{t}_J{j}+{l}` with d dead ends, t turns, j 3-way junctions and l 4-way crossings of the
key-node graph (this reading reproduces the card's Maze_5x5_D0_T4_J2+0).

Usage: `python -m tango.benchmarks.graphnav.generate OUT_DIR [--sizes 5 7 9] [--mazes-per-size 2]
[--episodes-per-maze 6] [--seed 0]`.
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.episodes import TASKS, Constraints, Episode, write_episodes
from tango.benchmarks.graphnav.keygraph import (
    Cell,
    KeyGraph,
    build_key_graph,
    count_node_types,
    direction_between,
)
from tango.benchmarks.graphnav.maze import DIRECTION_VECTORS, Maze, MazeName, write_maze
from tango.benchmarks.graphnav.observed import (
    OBSERVED_GRAPH,
    STATE_SPACE,
    VISIBILITY,
    walk_headings,
)
from tango.benchmarks.graphnav.validate import validate_episode

log = logging.getLogger(__name__)
SIZES = tuple(range(5, 18))


class GenerationError(RuntimeError):
    """A maze or episode set could not be drawn within the attempt bound (the message says which)."""


@dataclass
class MazeGenConfig:
    """Controls of the maze carve: corridor length vs branching, bounded loops, junction counts."""

    corridor_bias: float = 0.5
    min_loops: int = 1
    max_loops: int = 3
    min_junctions: int = 1
    max_junctions: int | None = None
    max_attempts: int = 200


@dataclass
class EpisodeGenConfig:
    """How exploration walks and the three tasks' episodes are drawn (constraint values are written per line)."""

    explore_len_min: int = 3
    episodes_per_task: int = 3
    min_trip_steps: int = 2  # trips also span at least half of their exploration walk
    shortcut_min_savings: float = 0.2
    max_attempts: int = 400
    tasks: tuple[str, ...] = TASKS

    def explore_len_target(self, size: int) -> int:
        """The walk length aimed at: 4 key-node steps at 5x5, growing with the maze to 10 at 17x17."""
        return int(min(10, max(4, size // 2 + 2)))

    def min_junctions(self, task: str, size: int) -> int:
        return 0 if task == "shortcut" or size < 9 else 1

    def min_gap(self, task: str, size: int) -> int:
        return (1 if size < 9 else 2) if task == "shortcut" else 0


def _lattice(size: int, rng: np.random.Generator) -> list[int]:
    offset = 0 if size % 2 == 1 else int(rng.integers(0, 2))
    return list(range(offset, size, 2))


def carve_maze(size: int, config: MazeGenConfig, rng: np.random.Generator) -> np.ndarray:
    """One carved grid (True = path) of side size."""
    coords = _lattice(size, rng)
    cells = [(x, y) for x in coords for y in coords]
    grid = np.zeros((size, size), dtype=bool)
    start = cells[int(rng.integers(len(cells)))]
    grid[start] = True
    visited = {start}
    active = [start]
    while active:
        index = len(active) - 1 if rng.random() < config.corridor_bias else int(rng.integers(len(active)))
        x, y = active[index]
        options = [
            (x + 2 * dx, y + 2 * dy)
            for dx, dy in DIRECTION_VECTORS
            if (x + 2 * dx, y + 2 * dy) in cells and (x + 2 * dx, y + 2 * dy) not in visited
        ]
        if not options:
            active.pop(index)
            continue
        nx, ny = options[int(rng.integers(len(options)))]
        grid[(x + nx) // 2, (y + ny) // 2] = True
        grid[nx, ny] = True
        visited.add((nx, ny))
        active.append((nx, ny))
    closed = [
        ((x + nx) // 2, (y + ny) // 2)
        for x, y in cells
        for nx, ny in ((x + 2, y), (x, y + 2))
        if (nx, ny) in visited and not grid[(x + nx) // 2, (y + ny) // 2]
    ]
    loops = int(rng.integers(config.min_loops, config.max_loops + 1))
    for choice in rng.permutation(len(closed))[: min(loops, len(closed))]:
        grid[closed[int(choice)]] = True
    return grid


def generate_maze(size: int, config: MazeGenConfig, rng: np.random.Generator) -> Maze:
    """A maze whose junction count (3- and 4-way) lies in the configured range, named by its node counts."""
    for _ in range(config.max_attempts):
        grid = carve_maze(size, config, rng)
        counts = count_node_types(build_key_graph(Maze("", grid)))
        junctions = counts[2] + counts[3]
        if junctions >= config.min_junctions and (
            config.max_junctions is None or junctions <= config.max_junctions
        ):
            return Maze(name=str(MazeName(size, *counts)), grid=grid)
    raise GenerationError(
        f"no {size}x{size} maze with junctions in [{config.min_junctions}, {config.max_junctions}]"
    )


def random_walk(graph: KeyGraph, target: int, rng: np.random.Generator) -> list[Cell]:
    """A self-avoiding walk over key nodes of up to target steps (it stops early at dead ends)."""
    starts = [node for node in graph.nodes if graph.degree(node) >= 1]
    path = [starts[int(rng.integers(len(starts)))]]
    while len(path) - 1 < target:
        options = [n for n in graph.neighbors[path[-1]].values() if n not in path]
        if not options:
            break
        path.append(options[int(rng.integers(len(options)))])
    return path


def _constraints(task: str, size: int, config: EpisodeGenConfig) -> Constraints:
    min_junctions = config.min_junctions(task, size)
    return Constraints(
        state_space=STATE_SPACE,
        observed_graph=OBSERVED_GRAPH,
        visibility=VISIBILITY,
        min_gap=config.min_gap(task, size),
        min_savings=config.shortcut_min_savings if task == "shortcut" else 0.0,
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


def draw_episodes(
    maze: Maze, graph: KeyGraph, task: str, count: int, config: EpisodeGenConfig, rng: np.random.Generator
) -> list[Episode]:
    """Up to count valid episodes of task on maze, each on its own exploration walk."""
    constraints = _constraints(task, maze.size, config)
    target = config.explore_len_target(maze.size)
    episodes: list[Episode] = []
    for _ in range(config.max_attempts):
        if len(episodes) >= count:
            break
        walk = random_walk(graph, int(rng.integers(target - 1, target + 2)), rng)
        if len(walk) - 1 < config.explore_len_min:
            continue
        span = max(config.min_trip_steps, (len(walk) - 1) // 2)
        pairs = [(i, j) for i in range(len(walk)) for j in range(i + span, len(walk))]
        for pair_index in rng.permutation(len(pairs)):
            low, high = pairs[int(pair_index)]
            start_idx, goal_idx = (high, low) if task == "reversed" else (low, high)
            episode = build_episode(
                task,
                maze.name,
                f"{maze.name}_{task}_{len(episodes)}",
                graph,
                walk,
                start_idx,
                goal_idx,
                constraints,
                target,
            )
            if _start_heading_ok(episode, graph) and not validate_episode(episode, maze, graph):
                episodes.append(episode)
                break
    return episodes


@dataclass
class DatasetSpec:
    """Which sizes, how many mazes per size and the generation controls of one synthetic GraphNav set."""

    sizes: tuple[int, ...] = SIZES
    mazes_per_size: int = 2
    seed: int = 0
    maze: MazeGenConfig = field(default_factory=MazeGenConfig)
    episodes: EpisodeGenConfig = field(default_factory=EpisodeGenConfig)


def generate_dataset(root: str | Path, spec: DatasetSpec) -> dict[str, int]:
    """Write mazes and path files under root; returns the episode count per task."""
    root = Path(root)
    rng = np.random.default_rng(spec.seed)
    counts = {task: 0 for task in spec.episodes.tasks}
    names: set[str] = set()
    for size in spec.sizes:
        made = 0
        for _ in range(spec.maze.max_attempts):
            if made >= spec.mazes_per_size:
                break
            maze = generate_maze(size, spec.maze, rng)
            if maze.name in names:
                continue
            graph = build_key_graph(maze)
            drawn = {
                t: draw_episodes(maze, graph, t, spec.episodes.episodes_per_task, spec.episodes, rng)
                for t in spec.episodes.tasks
            }
            if any(len(episodes) < spec.episodes.episodes_per_task for episodes in drawn.values()):
                continue
            names.add(maze.name)
            made += 1
            write_maze(maze, root / "mazes")
            for task, episodes in drawn.items():
                write_episodes(episodes, root / "paths" / task / f"{maze.name}.jsonl")
                counts[task] += len(episodes)
        if made < spec.mazes_per_size:
            raise GenerationError(
                f"only {made} of {spec.mazes_per_size} {size}x{size} mazes had valid episodes"
            )
    log.info("wrote %s episodes under %s", counts, root)
    return counts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.benchmarks.graphnav.generate")
    parser.add_argument("out_dir")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--mazes-per-size", type=int, default=2)
    parser.add_argument("--episodes-per-maze", type=int, default=3, help="episodes per task and maze")
    parser.add_argument("--corridor-bias", type=float, default=0.5)
    parser.add_argument("--max-loops", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    spec = DatasetSpec(
        sizes=tuple(args.sizes),
        mazes_per_size=args.mazes_per_size,
        seed=args.seed,
        maze=MazeGenConfig(corridor_bias=args.corridor_bias, max_loops=args.max_loops),
        episodes=EpisodeGenConfig(episodes_per_task=args.episodes_per_maze),
    )
    try:
        counts = generate_dataset(args.out_dir, spec)
    except GenerationError as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    print(counts)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
