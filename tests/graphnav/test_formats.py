"""The dataset card's worked example (FORMATS.md, GraphNav) read, graphed and re-derived field by field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.episodes import Constraints, EpisodeFormatError, load_episodes
from tango.benchmarks.graphnav.keygraph import build_key_graph, count_node_types
from tango.benchmarks.graphnav.maze import MazeFormatError, MazeName, load_maze, parse_maze_text
from tango.benchmarks.graphnav.validate import validate_episode

EXAMPLE_TEXT = """// Maze_5x5_D0_T4_J2+0
# the card's example
0 1 1 1 1
0 1 0 0 1
0 1 1 1 1
0 1 0 0 1
0 1 1 1 1
"""
EXAMPLE_LINE = {
    "maze_name": "Maze_5x5_D0_T4_J2+0",
    "episode_id": "0",
    "explore_path_len_target": 4,
    "explore_path": [[1, 4], [4, 4], [4, 2], [1, 2], [1, 0]],
    "explore_arrivals": [None, 1, 2, 3, 2],
    "start_idx": 0,
    "goal_idx": 3,
    "start": [1, 4],
    "goal": [1, 2],
    "explore_subpath": [[1, 4], [4, 4], [4, 2], [1, 2]],
    "ideal_path": [[1, 4], [1, 2]],
    "explore_len_steps": 3,
    "ideal_len_steps": 1,
    "junctions_on_ideal": 0,
    "constraints": {
        "state_space": "key_nodes",
        "observed_graph": "explored_plus_visible",
        "min_gap": 1,
        "min_savings": 0.25,
        "min_junctions_on_ideal": 0,
        "ideal_is_global_shortest_on_key_graph": True,
        "junction_include_endpoints": False,
    },
}


@pytest.fixture()
def example_root(tmp_path: Path) -> Path:
    (tmp_path / "mazes").mkdir()
    (tmp_path / "mazes" / "Maze_5x5_D0_T4_J2+0.txt").write_text(EXAMPLE_TEXT)
    (tmp_path / "paths" / "shortcut").mkdir(parents=True)
    (tmp_path / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl").write_text(
        json.dumps(EXAMPLE_LINE) + "\n"
    )
    return tmp_path


def test_maze_reads_grid_x_y_with_y_up(example_root: Path) -> None:
    maze = load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt")
    assert maze.size == 5 and maze.name == "Maze_5x5_D0_T4_J2+0"
    assert not maze.grid[0, 4] and maze.grid[1, 4] and maze.grid[4, 4]  # file row 0 is y = 4
    assert not maze.grid[2, 3] and maze.grid[4, 3] and maze.grid[2, 2]
    assert parse_maze_text(maze.to_text(), maze.name).grid.tolist() == maze.grid.tolist()


def test_key_graph_of_the_worked_example(example_root: Path) -> None:
    graph = build_key_graph(load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt"))
    assert set(graph.nodes) == {(1, 4), (4, 4), (1, 2), (4, 2), (1, 0), (4, 0)}
    assert graph.edges() == {
        frozenset(e)
        for e in [
            ((1, 4), (4, 4)),
            ((1, 4), (1, 2)),
            ((4, 4), (4, 2)),
            ((1, 2), (4, 2)),
            ((1, 2), (1, 0)),
            ((4, 2), (4, 0)),
            ((1, 0), (4, 0)),
        ]
    }
    assert graph.neighbors[(1, 2)] == {0: (1, 4), 1: (4, 2), 2: (1, 0)}
    # The name's D0 T4 J2+0 is what our reading (dead ends, turns, 3-way, 4-way) counts.
    assert count_node_types(graph) == (0, 4, 2, 0)
    assert MazeName.parse("Maze_5x5_D0_T4_J2+0") == MazeName(5, 0, 4, 2, 0)


def test_worked_example_fields_are_reproduced(example_root: Path) -> None:
    maze = load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt")
    graph = build_key_graph(maze)
    (loaded,) = load_episodes(example_root / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl")
    derived = build_episode(
        "shortcut", maze.name, "0", graph, loaded.explore_path, 0, 3, loaded.constraints, 4
    )
    assert derived.explore_arrivals == [None, 1, 2, 3, 2]
    assert derived.explore_subpath == [(1, 4), (4, 4), (4, 2), (1, 2)]
    assert derived.ideal_path == [(1, 4), (1, 2)]
    assert (derived.explore_len_steps, derived.ideal_len_steps, derived.junctions_on_ideal) == (3, 1, 0)
    assert derived.to_json() == json.loads(json.dumps(EXAMPLE_LINE))
    assert validate_episode(loaded, maze, graph) == []


def test_format_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "Maze_5x5_D0_T0_J0+0.txt"
    bad.write_text("0 1 2\n")
    with pytest.raises(MazeFormatError, match=re.escape(str(bad))):
        load_maze(bad)
    lines = tmp_path / "paths" / "repeated" / "m.jsonl"
    lines.parent.mkdir(parents=True)
    lines.write_text('{"maze_name": "m"}\n')
    with pytest.raises(EpisodeFormatError, match="m.jsonl:1: missing fields"):
        load_episodes(lines)
    assert Constraints().min_gap is None
