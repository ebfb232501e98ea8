"""What an exploration walk shows: the published observed graph and the headings our agent has along the walk.

The published constraint values are `state_space: key_nodes_only`, `observed_graph: full_explore_path` and
`visibility: LFR` (or `LFRB`). Read as the published episode extractor computes them: at every node of the full
explore path the agent faces `explore_arrivals[i]` (North at the first node, whose arrival is null) and sees
the corridor to the next key node in each of its left, front and right (and back, for LFRB) directions; the
union of those corridors is the observed graph a shortcut's ideal path is searched in.

Our agent's own headings (`walk_headings`) face the first move at the first node and turn around at dead ends,
as the env plays them; our generator keeps only shortcuts whose ideal edges both readings see.
"""

from __future__ import annotations

from itertools import pairwise

from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph, direction_between

STATE_SPACE = "key_nodes_only"
OBSERVED_GRAPH = "full_explore_path"
VISIBILITY = "LFR"
VISIBILITY_OFFSETS = {"LFR": (-1, 0, 1), "LFRB": (-1, 0, 1, 2)}
VIEW_OFFSETS = {"left": -1, "front": 0, "right": 1}
Adjacency = dict[Cell, set[Cell]]


def published_observed_graph(
    graph: KeyGraph, explore_path: list[Cell], arrivals: list[int | None], visibility: str = VISIBILITY
) -> Adjacency:
    """The observed graph of the published reading (module docstring); unknown visibility is a ValueError."""
    if visibility not in VISIBILITY_OFFSETS:
        raise ValueError(f"visibility {visibility!r}: expected one of {sorted(VISIBILITY_OFFSETS)}")
    adjacency: Adjacency = {}
    for node, arrival in zip(explore_path, arrivals):
        heading = 0 if arrival is None else arrival
        for offset in VISIBILITY_OFFSETS[visibility]:
            other = graph.neighbor_in(node, (heading + offset) % 4)
            if other is not None:
                adjacency.setdefault(node, set()).add(other)
                adjacency.setdefault(other, set()).add(node)
    return adjacency


def heading_on_arrival(graph: KeyGraph, node: Cell, arrival: int) -> int:
    """The heading after arriving at node moving in direction arrival (turned around at a dead end)."""
    return (arrival + 2) % 4 if graph.degree(node) == 1 else arrival


def walk_headings(graph: KeyGraph, path: list[Cell]) -> list[int]:
    """Our agent's heading at each node of a walk (the first node faces the first move)."""
    if len(path) < 2:
        return [0] * len(path)
    headings = [direction_between(path[0], path[1])]
    for previous, node in pairwise(path):
        headings.append(heading_on_arrival(graph, node, direction_between(previous, node)))
    return headings


def visible_directions(heading: int) -> list[int]:
    """Absolute directions of the left, front and right sub-views."""
    return [(heading + offset) % 4 for offset in VIEW_OFFSETS.values()]


def agent_observed_edges(graph: KeyGraph, path: list[Cell]) -> set[frozenset[Cell]]:
    """Edges our agent walks or sees in its left/front/right views along path (its own headings)."""
    edges = {frozenset((a, b)) for a, b in pairwise(path)}
    for node, heading in zip(path, walk_headings(graph, path)):
        for direction in visible_directions(heading):
            other = graph.neighbor_in(node, direction)
            if other is not None:
                edges.add(frozenset((node, other)))
    return edges


def shortest_on(adjacency: Adjacency, start: Cell, goal: Cell) -> list[Cell] | None:
    """One shortest path from start to goal in an adjacency (neighbours tried in sorted order), or None."""
    previous: dict[Cell, Cell | None] = {start: None}
    frontier = [start]
    while frontier and goal not in previous:
        following = []
        for node in frontier:
            for other in sorted(adjacency.get(node, ())):
                if other not in previous:
                    previous[other] = node
                    following.append(other)
        frontier = following
    if goal not in previous:
        return None
    path = [goal]
    while previous[path[-1]] is not None:
        path.append(previous[path[-1]])  # type: ignore[arg-type]
    return path[::-1]
