"""Shared fixtures data for the GraphNav tests: the card's worked example and blank views."""

from __future__ import annotations

import numpy as np

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.episodes import Constraints, Episode
from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph, build_key_graph
from tango.benchmarks.graphnav.maze import Maze, parse_maze_text
from tango.benchmarks.graphnav.views import NodeView

EXAMPLE_NAME = "Maze_5x5_D0_T4_J2+0"
EXAMPLE_TEXT = "0 1 1 1 1\n0 1 0 0 1\n0 1 1 1 1\n0 1 0 0 1\n0 1 1 1 1\n"
EXAMPLE_WALK: list[Cell] = [(1, 4), (4, 4), (4, 2), (1, 2), (1, 0)]


def example_maze() -> tuple[Maze, KeyGraph]:
    maze = parse_maze_text(EXAMPLE_TEXT, EXAMPLE_NAME)
    return maze, build_key_graph(maze)


def example_episode(task: str, start_idx: int, goal_idx: int) -> Episode:
    """An episode on the card's example maze and exploration walk."""
    _, graph = example_maze()
    return build_episode(
        task,
        EXAMPLE_NAME,
        f"{task}-{start_idx}-{goal_idx}",
        graph,
        EXAMPLE_WALK,
        start_idx,
        goal_idx,
        Constraints(),
    )


class BlankViews:
    """A ViewSource of grey frames that records which (node, heading) views were asked for."""

    def __init__(self) -> None:
        self.asked: list[tuple[Cell, int]] = []

    def node_view(self, node: Cell, heading: int) -> NodeView:
        self.asked.append((node, heading))
        return NodeView(rgb=np.full((8, 24, 3), 128, np.uint8))

    def destination_view(self, node: Cell) -> NodeView:
        return NodeView(rgb=np.full((8, 8, 3), 128, np.uint8))
