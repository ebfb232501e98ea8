"""The key-node graph of a maze: junctions, turns and dead ends joined by straight corridors.

One GraphNav step is a move along one corridor between adjacent key nodes (FORMATS.md, GraphNav).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise

from tango.benchmarks.graphnav.maze import DIRECTION_VECTORS, Maze

Cell = tuple[int, int]


def is_key_cell(maze: Maze, cell: Cell) -> bool:
    """A path cell is a key node unless it has exactly two open sides facing each other (a straight corridor)."""
    directions = maze.open_directions(*cell)
    return not (len(directions) == 2 and (directions[0] + 2) % 4 == directions[1])


def direction_between(a: Cell, b: Cell) -> int:
    """Absolute direction (0=N, 1=E, 2=S, 3=W) of the straight move from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy > 0:
        return 0
    if dy == 0 and dx > 0:
        return 1
    if dx == 0 and dy < 0:
        return 2
    if dy == 0 and dx < 0:
        return 3
    raise ValueError(f"{a} -> {b} is not a straight move")


@dataclass
class KeyGraph:
    """Key nodes and, per node, the neighbour reached in each open absolute direction with its length in cells."""

    nodes: list[Cell]
    neighbors: dict[Cell, dict[int, Cell]] = field(default_factory=dict)
    lengths: dict[tuple[Cell, Cell], int] = field(default_factory=dict)

    def degree(self, node: Cell) -> int:
        return len(self.neighbors.get(node, {}))

    def has_edge(self, a: Cell, b: Cell) -> bool:
        return b in self.neighbors.get(a, {}).values()

    def edges(self) -> set[frozenset[Cell]]:
        return {frozenset((a, b)) for a, nbrs in self.neighbors.items() for b in nbrs.values()}

    def neighbor_in(self, node: Cell, direction: int) -> Cell | None:
        return self.neighbors.get(node, {}).get(direction)

    def distances_from(self, source: Cell) -> dict[Cell, int]:
        """Key-node step counts from source (breadth-first)."""
        distance = {source: 0}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            for other in self.neighbors.get(node, {}).values():
                if other not in distance:
                    distance[other] = distance[node] + 1
                    queue.append(other)
        return distance

    def is_walk(self, path: list[Cell]) -> bool:
        """Whether consecutive cells of path are adjacent key nodes."""
        return all(node in self.neighbors for node in path) and all(
            self.has_edge(a, b) for a, b in pairwise(path)
        )


def build_key_graph(maze: Maze) -> KeyGraph:
    """Extract key nodes and follow each open side straight to the next key node."""
    nodes = [cell for cell in maze.path_cells() if is_key_cell(maze, cell)]
    graph = KeyGraph(nodes=sorted(nodes))
    for node in graph.nodes:
        graph.neighbors[node] = {}
        for direction in maze.open_directions(*node):
            dx, dy = DIRECTION_VECTORS[direction]
            x, y, length = node[0] + dx, node[1] + dy, 1
            while not is_key_cell(maze, (x, y)):
                x, y, length = x + dx, y + dy, length + 1
            graph.neighbors[node][direction] = (x, y)
            graph.lengths[(node, (x, y))] = length
    return graph


def arrival_directions(path: list[Cell]) -> list[int | None]:
    """explore_arrivals: None at the first node, then the absolute direction of the move that arrived there."""
    return [None] + [direction_between(a, b) for a, b in pairwise(path)]


def junctions_on_path(
    graph: KeyGraph, path: list[Cell], include_endpoints: bool = False, min_degree: int = 3
) -> int:
    """Nodes of path with key-graph degree >= min_degree (endpoints only when include_endpoints)."""
    nodes = path if include_endpoints else path[1:-1]
    return sum(1 for node in nodes if graph.degree(node) >= min_degree)


def count_node_types(graph: KeyGraph) -> tuple[int, int, int, int]:
    """(dead ends, turns, 3-way junctions, 4-way crossings): the D, T, J, l of our maze names."""
    dead_ends = sum(1 for node in graph.nodes if graph.degree(node) == 1)
    turns = sum(1 for node in graph.nodes if graph.degree(node) == 2)
    junctions = sum(1 for node in graph.nodes if graph.degree(node) == 3)
    crossings = sum(1 for node in graph.nodes if graph.degree(node) == 4)
    return dead_ends, turns, junctions, crossings
