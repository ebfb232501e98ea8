"""Generated GraphNav data: 1000+ episodes over all sizes pass the validator; hand-broken ones fail it."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from tango.benchmarks.graphnav.episodes import TASKS, Episode, load_episodes, path_files
from tango.benchmarks.graphnav.generate import (
    DatasetSpec,
    EpisodeGenConfig,
    MazeGenConfig,
    generate_dataset,
    generate_maze,
)
from tango.benchmarks.graphnav.keygraph import build_key_graph, count_node_types
from tango.benchmarks.graphnav.maze import MazeName, load_maze
from tango.benchmarks.graphnav.validate import validate_dataset, validate_episode


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graphnav")
    spec = DatasetSpec(mazes_per_size=3, seed=7, episodes=EpisodeGenConfig(episodes_per_task=9))
    counts = generate_dataset(root, spec)
    assert sum(counts.values()) >= 1000
    return root


def test_every_generated_episode_validates(dataset: Path) -> None:
    report = validate_dataset(dataset)
    assert report.checked >= 1000 and report.failed == 0, report.problems[:5]
    assert set(report.by_task) == set(TASKS)
    sizes = {load_maze(p).size for p in (dataset / "mazes").glob("*.txt")}
    assert sizes == set(range(5, 18))


def test_maze_names_count_key_node_types(dataset: Path) -> None:
    for path in (dataset / "mazes").glob("*.txt"):
        maze = load_maze(path)
        name = MazeName.parse(maze.name)
        assert (name.dead_ends, name.turns, name.junctions, name.crossings) == count_node_types(
            build_key_graph(maze)
        )


def _first(dataset: Path, task: str) -> tuple[Episode, object, object]:
    episode = load_episodes(path_files(dataset, task)[-1])[0]
    maze = load_maze(dataset / "mazes" / f"{episode.maze_name}.txt")
    return episode, maze, build_key_graph(maze)


@pytest.mark.parametrize(
    ("task", "breakage", "message"),
    [
        (
            "repeated",
            lambda e: e.explore_arrivals.__setitem__(1, (e.explore_arrivals[1] + 1) % 4),
            "explore_arrivals",
        ),
        ("repeated", lambda e: setattr(e, "explore_len_steps", e.explore_len_steps + 1), "explore_len_steps"),
        ("reversed", lambda e: setattr(e, "ideal_path", e.ideal_path[::-1]), "ideal_path"),
        (
            "shortcut",
            lambda e: e.__dict__.update(ideal_path=e.explore_subpath, ideal_len_steps=e.explore_len_steps),
            "shortest",
        ),
        ("shortcut", lambda e: setattr(e.constraints, "min_gap", 99), "min_gap"),
        ("shortcut", lambda e: setattr(e.constraints, "min_savings", 0.99), "min_savings"),
        (
            "repeated",
            lambda e: setattr(e, "junctions_on_ideal", e.junctions_on_ideal + 1),
            "junctions_on_ideal",
        ),
        ("repeated", lambda e: setattr(e, "goal", (e.goal[0] + 1, e.goal[1])), "start/goal"),
        ("repeated", lambda e: e.explore_path.__setitem__(1, (-1, -1)), "not a walk"),
    ],
)
def test_hand_broken_episodes_fail(dataset: Path, task: str, breakage, message: str) -> None:
    episode, maze, graph = _first(dataset, task)
    assert validate_episode(episode, maze, graph) == []
    broken = copy.deepcopy(episode)
    breakage(broken)
    problems = validate_episode(broken, maze, graph)
    assert any(message in problem for problem in problems), problems


def test_corridor_bias_and_loop_bounds_shape_mazes() -> None:
    rng = np.random.default_rng(3)

    def mean_dead_ends(bias: float) -> float:
        config = MazeGenConfig(corridor_bias=bias, min_loops=0, max_loops=0, min_junctions=0)
        return float(
            np.mean([count_node_types(build_key_graph(generate_maze(13, config, rng)))[0] for _ in range(15)])
        )

    assert mean_dead_ends(0.0) > mean_dead_ends(1.0) + 3  # Prim-style branching vs long corridors
    for loops in (0, 2):
        config = MazeGenConfig(min_loops=loops, max_loops=loops, min_junctions=0)
        graph = build_key_graph(generate_maze(11, config, rng))
        assert len(graph.edges()) - len(graph.nodes) + 1 == loops  # independent cycles = opened walls
    config = MazeGenConfig(min_junctions=6, max_junctions=8)
    counts = count_node_types(build_key_graph(generate_maze(11, config, rng)))
    assert 6 <= counts[2] + counts[3] <= 8
