"""Generated GraphNav data: 1000+ episodes over the card's sizes pass the validator strictly; hand-broken ones
fail it; the card preset's shape (a slow test generates it whole)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from tango.benchmarks.graphnav.episodes import TASKS, Episode, load_episodes, path_files
from tango.benchmarks.graphnav.generate import (
    CARD_DENSITIES,
    CARD_MAZES_PER_SIZE,
    DatasetSpec,
    EpisodeGenConfig,
    card_spec,
    generate_dataset,
    main,
)
from tango.benchmarks.graphnav.keygraph import build_key_graph, count_node_types
from tango.benchmarks.graphnav.maze import MazeName, load_maze
from tango.benchmarks.graphnav.mazegen import SIZES, MazeGenConfig, generate_maze
from tango.benchmarks.graphnav.validate import validate_dataset, validate_episode


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graphnav")
    spec = DatasetSpec(
        mazes_per_size={size: 5 for size in SIZES}, seed=7, episodes=EpisodeGenConfig(episodes_per_task=10)
    )
    counts = generate_dataset(root, spec)
    assert sum(counts[task] for task in TASKS) == 35 * 30 and counts["mazes"] == 35
    return root


def test_every_generated_episode_validates_strictly(dataset: Path) -> None:
    report = validate_dataset(dataset, strict=True)
    assert report.checked >= 1000 and report.failed == 0, report.problems[:5]
    assert set(report.by_task) == set(TASKS) and not report.exceptions
    sizes = {load_maze(p).size for p in (dataset / "mazes").glob("*.txt")}
    assert sizes == {5, 7, 9, 11, 13, 15, 17}  # the card's sizes: odd only


def test_generated_lines_carry_the_card_readings(dataset: Path) -> None:
    config = EpisodeGenConfig()
    for task in TASKS:
        for file in path_files(dataset, task):
            size = MazeName.parse(file.stem).size
            signatures = set()
            for episode in load_episodes(file):
                rules = episode.constraints
                assert (rules.state_space, rules.observed_graph, rules.visibility) == (
                    "key_nodes_only",
                    "full_explore_path",
                    "LFR",
                )
                assert len(episode.explore_path) == episode.explore_path_len_target
                assert episode.explore_path_len_target == config.explore_len_target(size)
                assert abs(episode.goal_idx - episode.start_idx) >= rules.min_gap == 2
                savings = episode.explore_len_steps - episode.ideal_len_steps
                assert savings >= (rules.min_savings or 0) == (1 if task == "shortcut" else 0)
                signatures.add((tuple(episode.explore_path), episode.start_idx, episode.goal_idx))
            assert len(signatures) == 10  # distinct (walk, start, goal) per task and maze


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
        ("shortcut", lambda e: setattr(e.constraints, "min_savings", 99), "min_savings"),
        ("repeated", lambda e: setattr(e, "explore_path_len_target", 99), "explore_path_len_target"),
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
    assert validate_episode(episode, maze, graph, strict=True) == []
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


def test_density_levels_open_more_loops() -> None:
    rng = np.random.default_rng(5)

    def mean_cycles(level: tuple[float, float]) -> float:
        config = MazeGenConfig(loop_fraction=level, min_junctions=0)
        graphs = [build_key_graph(generate_maze(13, config, rng)) for _ in range(12)]
        return float(np.mean([len(g.edges()) - len(g.nodes) + 1 for g in graphs]))

    sparse, medium, dense = (mean_cycles(level) for level in CARD_DENSITIES)
    assert sparse < medium < dense


def test_card_preset_shape_and_size_check() -> None:
    spec = card_spec()
    assert sum(spec.mazes_per_size.values()) == 420 == sum(CARD_MAZES_PER_SIZE.values())
    assert sorted(spec.mazes_per_size) == list(SIZES)
    assert spec.episodes.episodes_per_task * 3 * 420 >= 37443  # room for the card's path count
    with pytest.raises(ValueError, match="not among the card's maze sizes"):
        DatasetSpec(mazes_per_size={6: 1})


@pytest.mark.slow
def test_card_preset_reaches_the_cards_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "--preset", "card"]) == 0
    printed = capsys.readouterr().out
    mazes = list((tmp_path / "mazes").glob("*.txt"))
    assert len(mazes) == 420
    report = validate_dataset(tmp_path, strict=True)
    assert report.failed == 0 and 37000 <= report.checked <= 38500, printed
    assert 88 <= report.checked / 420 <= 92
