"""The dataset card's worked example (FORMATS.md, GraphNav) read, graphed, re-derived and validated field by field.

The constraint block holds the values the published extractor writes (key_nodes_only, full_explore_path, LFR,
min_gap 2, min_savings 1, junction flags on): the card's example has junctions_on_ideal 0 under them, its
documented junction contradiction.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.episodes import Constraints, EpisodeFormatError, load_episodes
from tango.benchmarks.graphnav.keygraph import build_key_graph, count_node_types
from tango.benchmarks.graphnav.maze import MazeFormatError, MazeName, load_maze, parse_maze_text
from tango.benchmarks.graphnav.observed import published_observed_graph
from tango.benchmarks.graphnav.validate import (
    JUNCTION_EXCEPTION,
    junction_findings,
    main,
    validate_dataset,
    validate_episode,
)

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
    "explore_path_len_target": 5,
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
        "state_space": "key_nodes_only",
        "observed_graph": "full_explore_path",
        "visibility": "LFR",
        "min_gap": 2,
        "min_savings": 1,
        "min_junctions_on_ideal": 2,
        "ideal_is_global_shortest_on_key_graph": True,
        "ideal_has_junction_deg_ge_3_on_key_graph": True,
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
        "shortcut", maze.name, "0", graph, loaded.explore_path, 0, 3, loaded.constraints, 5
    )
    assert derived.explore_arrivals == [None, 1, 2, 3, 2]
    assert derived.explore_subpath == [(1, 4), (4, 4), (4, 2), (1, 2)]
    assert derived.ideal_path == [(1, 4), (1, 2)]
    assert (derived.explore_len_steps, derived.ideal_len_steps, derived.junctions_on_ideal) == (3, 1, 0)
    assert derived.to_json() == json.loads(json.dumps(EXAMPLE_LINE))


def test_published_observed_graph_of_the_worked_example(example_root: Path) -> None:
    graph = build_key_graph(load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt"))
    (episode,) = load_episodes(example_root / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl")
    seen = published_observed_graph(graph, episode.explore_path, episode.explore_arrivals, "LFR")
    edges = {frozenset((a, b)) for a, others in seen.items() for b in others}
    # At (1,4) the null arrival faces North: only East is open among left/front/right. The ideal edge
    # (1,4)-(1,2) is seen from (1,2), arrived at heading West, on its right.
    assert edges == graph.edges()
    without_last = published_observed_graph(graph, episode.explore_path[:3], episode.explore_arrivals[:3])
    assert (1, 2) not in without_last.get((1, 4), set())
    assert (1, 2) in published_observed_graph(graph, episode.explore_path, episode.explore_arrivals, "LFRB")[
        (1, 0)
    ]


def test_validator_accepts_the_worked_example_but_its_junction_contradiction(example_root: Path) -> None:
    maze = load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt")
    graph = build_key_graph(maze)
    (episode,) = load_episodes(example_root / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl")
    assert validate_episode(episode, maze, graph) == []
    findings = junction_findings(episode, graph)
    assert findings == [
        "ideal path has no junction of degree >= 3",
        "junctions_on_ideal 0 < min_junctions_on_ideal 2",
    ]
    assert validate_episode(episode, maze, graph, strict=True) == findings
    report = validate_dataset(example_root).to_json()
    assert report["ok"] and report["failed"] == 0 and report["checked"] == 1
    assert report["exceptions"][JUNCTION_EXCEPTION]["count"] == 1  # documented, not silent
    assert "Maze_5x5_D0_T4_J2+0.jsonl:1: ideal path has no junction" in str(report["exceptions"])
    strict = validate_dataset(example_root, strict=True).to_json()
    assert strict["failed"] == 1 and not strict["exceptions"]
    assert main([str(example_root)]) == 0 and main([str(example_root), "--strict"]) == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("min_gap", 4, "index gap 3 between start and goal < min_gap 4"),
        ("min_savings", 3, "savings 2 steps < min_savings 3"),
        ("observed_graph", "explored_plus_visible", "is not the card's 'full_explore_path'"),
        ("state_space", "key_nodes", "is not the card's 'key_nodes_only'"),
        ("visibility", "LR", "visibility 'LR' is not one of"),
    ],
)
def test_constraint_readings_reject_what_the_card_rejects(
    example_root: Path, field: str, value: object, message: str
) -> None:
    maze = load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt")
    graph = build_key_graph(maze)
    (episode,) = load_episodes(example_root / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl")
    setattr(episode.constraints, field, value)
    assert any(message in problem for problem in validate_episode(episode, maze, graph))


def test_explore_target_counts_nodes_and_ideal_must_be_observed(example_root: Path) -> None:
    maze = load_maze(example_root / "mazes" / "Maze_5x5_D0_T4_J2+0.txt")
    graph = build_key_graph(maze)
    (episode,) = load_episodes(example_root / "paths" / "shortcut" / "Maze_5x5_D0_T4_J2+0.jsonl")
    episode.explore_path_len_target = 4  # steps, not nodes: wrong
    assert "explore_path has 5 nodes, explore_path_len_target 4 (nodes)" in validate_episode(
        episode, maze, graph
    )
    episode.explore_path_len_target = 5
    short = build_episode(
        "shortcut", maze.name, "1", graph, episode.explore_path[:4], 0, 3, episode.constraints, 4
    )
    assert validate_episode(short, maze, graph) == []  # (1,2) on its right still shows (1,4)
    truncated = build_episode(
        "shortcut", maze.name, "2", graph, episode.explore_path[:3], 0, 2, episode.constraints, 3
    )
    truncated.__dict__.update(ideal_path=[(1, 4), (1, 2), (4, 2)], ideal_len_steps=2)
    assert any("outside the observed graph" in p for p in validate_episode(truncated, maze, graph))


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
