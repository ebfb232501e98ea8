"""What an exploration walk lets an agent see: its headings and the corridors in its left/front/right views.

At a node the agent faces its arrival direction (at the first node, the direction of its first move); at a
dead end it turns around. Its stitched view shows the corridors to its left, front and right, and a straight
corridor shows the landmark of the key node at its far end, so those edges are observed without walking them.
"""

from __future__ import annotations

from itertools import pairwise

from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph, direction_between

OBSERVED_GRAPH = "explored_plus_visible"
VISIBILITY = "left_front_right_to_next_key_node"
STATE_SPACE = "key_nodes"
VIEW_OFFSETS = {"left": -1, "front": 0, "right": 1}


def heading_on_arrival(graph: KeyGraph, node: Cell, arrival: int) -> int:
    """The heading after arriving at node moving in direction arrival (turned around at a dead end)."""
    return (arrival + 2) % 4 if graph.degree(node) == 1 else arrival


def walk_headings(graph: KeyGraph, path: list[Cell]) -> list[int]:
    """The agent's heading at each node of a walk (the first node faces the first move)."""
    if len(path) < 2:
        return [0] * len(path)
    headings = [direction_between(path[0], path[1])]
    for previous, node in pairwise(path):
        headings.append(heading_on_arrival(graph, node, direction_between(previous, node)))
    return headings


def visible_directions(heading: int) -> list[int]:
    """Absolute directions of the left, front and right sub-views."""
    return [(heading + offset) % 4 for offset in VIEW_OFFSETS.values()]


def observed_edges(graph: KeyGraph, path: list[Cell]) -> set[frozenset[Cell]]:
    """Edges walked by path plus edges seen in the left/front/right views at its nodes."""
    edges = {frozenset((a, b)) for a, b in pairwise(path)}
    for node, heading in zip(path, walk_headings(graph, path)):
        for direction in visible_directions(heading):
            other = graph.neighbor_in(node, direction)
            if other is not None:
                edges.add(frozenset((node, other)))
    return edges
