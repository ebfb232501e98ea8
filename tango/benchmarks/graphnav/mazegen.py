"""Procedural GraphNav mazes: a growing-tree carve on a lattice of corridor lines, with bounded extra loops.

Corridor lines run 2 or 3 grid units apart (the card's Maze_5x5_D0_T4_J2+0 has columns 1 and 4, rows 0, 2 and
4); each carve step extends the newest lattice point with probability `corridor_bias` (long corridors,
depth-first) and a random frontier point otherwise (Prim-style branching). Then extra walls between lattice
neighbours are opened: a count in [min_loops, max_loops], or, when `loop_fraction` is set, that fraction of the
closed walls (the density levels of the card preset). Mazes whose junction count falls outside
[min_junctions, max_junctions] are redrawn. The name is `Maze_{S}x{S}_D{d}_T{t}_J{j}+{l}` with d dead ends,
t turns, j 3-way junctions and l 4-way crossings of the key-node graph (this reading reproduces the card's
Maze_5x5_D0_T4_J2+0). Sizes are the card's: odd, 5 to 17.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.benchmarks.graphnav.keygraph import build_key_graph, count_node_types
from tango.benchmarks.graphnav.maze import DIRECTION_VECTORS, Maze, MazeName

SIZES = (5, 7, 9, 11, 13, 15, 17)


class GenerationError(RuntimeError):
    """A maze or episode set could not be drawn within the attempt bound (the message says which)."""


def check_sizes(sizes: list[int] | tuple[int, ...], key: str = "sizes") -> None:
    """Raise ValueError naming key unless every size is one of the card's (odd, 5 to 17)."""
    wrong = [size for size in sizes if size not in SIZES]
    if wrong:
        raise ValueError(f"{key}: {wrong} not among the card's maze sizes {list(SIZES)}")


@dataclass
class MazeGenConfig:
    """Controls of the carve: line spacing, corridor length vs branching, loops, junction counts."""

    corridor_bias: float = 0.5
    wide_gap_probability: float = 0.3
    min_loops: int = 1
    max_loops: int = 3
    loop_fraction: tuple[float, float] | None = None
    min_junctions: int = 1
    max_junctions: int | None = None
    max_attempts: int = 200


def corridor_lines(size: int, wide_gap_probability: float, rng: np.random.Generator) -> list[int]:
    """Coordinates of parallel corridor lines 2 or 3 apart inside [0, size), at least two of them."""
    for _ in range(50):
        lines = [int(rng.integers(0, 2))]
        while True:
            gap = 3 if rng.random() < wide_gap_probability else 2
            if lines[-1] + gap > size - 1:
                break
            lines.append(lines[-1] + gap)
        if len(lines) >= 2:
            return lines
    return list(range(0, size, 2))


def _open_segment(grid: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> None:
    (x0, y0), (x1, y1) = a, b
    grid[min(x0, x1) : max(x0, x1) + 1, min(y0, y1) : max(y0, y1) + 1] = True


def carve_maze(size: int, config: MazeGenConfig, rng: np.random.Generator) -> np.ndarray:
    """One carved grid (True = path) of side size."""
    xs = corridor_lines(size, config.wide_gap_probability, rng)
    ys = corridor_lines(size, config.wide_gap_probability, rng)
    points = [(i, j) for i in range(len(xs)) for j in range(len(ys))]

    def cell(point: tuple[int, int]) -> tuple[int, int]:
        return xs[point[0]], ys[point[1]]

    grid = np.zeros((size, size), dtype=bool)
    start = points[int(rng.integers(len(points)))]
    grid[cell(start)] = True
    visited, active, links = {start}, [start], set()
    while active:
        index = len(active) - 1 if rng.random() < config.corridor_bias else int(rng.integers(len(active)))
        i, j = active[index]
        options = [
            (i + di, j + dj)
            for di, dj in DIRECTION_VECTORS
            if 0 <= i + di < len(xs) and 0 <= j + dj < len(ys) and (i + di, j + dj) not in visited
        ]
        if not options:
            active.pop(index)
            continue
        chosen = options[int(rng.integers(len(options)))]
        _open_segment(grid, cell((i, j)), cell(chosen))
        links.add(frozenset(((i, j), chosen)))
        visited.add(chosen)
        active.append(chosen)
    closed = [
        (a, b)
        for a in points
        for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1))
        if b in visited and frozenset((a, b)) not in links
    ]
    if config.loop_fraction is not None:
        low, high = config.loop_fraction
        loops = max(config.min_loops, round(float(rng.uniform(low, high)) * len(closed)))
    else:
        loops = int(rng.integers(config.min_loops, config.max_loops + 1))
    for choice in rng.permutation(len(closed))[: min(loops, len(closed))]:
        a, b = closed[int(choice)]
        _open_segment(grid, cell(a), cell(b))
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
