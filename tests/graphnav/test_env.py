"""The GraphNav environment on the card's example maze: moves by token, invalid actions, budgets, headings."""

from __future__ import annotations

from tango.benchmarks.graphnav.build import build_episode
from tango.benchmarks.graphnav.conditions import get_condition
from tango.benchmarks.graphnav.env import EnvConfig, GraphNavEnv
from tango.benchmarks.graphnav.episodes import Constraints
from tango.benchmarks.graphnav.keygraph import build_key_graph
from tango.benchmarks.graphnav.maze import parse_maze_text
from tests.graphnav.support import BlankViews, example_episode, example_maze


def make_env(task: str, start_idx: int, goal_idx: int, condition: str = "C3", **config: int) -> GraphNavEnv:
    _, graph = example_maze()
    return GraphNavEnv(
        example_episode(task, start_idx, goal_idx),
        graph,
        BlankViews(),
        get_condition(condition),
        EnvConfig(**config),
    )


def test_shortcut_of_the_worked_example_in_one_move() -> None:
    env = make_env("shortcut", 0, 3)
    assert env.state.heading == 1  # facing east, as when exploring from (1, 4)
    assert sorted(env.valid_tokens()) == ["F", "R"]
    result = env.step("R")
    assert result.moved and result.done and result.success
    assert env.metrics() == {"success": 1.0, "num_steps": 1.0, "invalid_actions": 0.0, "spl": 1.0, "dps": 1.0}


def test_invalid_actions_get_feedback_and_a_retry() -> None:
    env = make_env("shortcut", 0, 3, condition="C4")
    wall = env.step("1")  # left of east is north: a wall
    assert not wall.moved and not wall.done and "wall" in (wall.feedback or "")
    unknown = env.step("go north")
    assert not unknown.moved and "not an action" in (unknown.feedback or "") and "1, 2, 3" in unknown.feedback
    assert env.step("3").success
    assert env.metrics()["invalid_actions"] == 2.0


def test_invalid_action_allowance_ends_the_trip() -> None:
    env = make_env("shortcut", 0, 3, max_invalid_actions=3)
    results = [env.step("L") for _ in range(3)]
    assert results[-1].done and not results[-1].success
    assert env.state.failure_reason == "invalid_action_budget"


def test_step_budget_ends_a_loop_with_its_reason() -> None:
    env = make_env("repeated", 0, 4)  # explore_len 4: budget 2 * 4 + 4 = 12
    assert env.max_steps == 12
    tokens = ["F"] + ["R"] * 20  # (1,4) -> (4,4) -> (4,2) -> (1,2) -> (1,4) ... never (1,0)
    for token in tokens:
        if env.step(token).done:
            break
    assert env.state.failure_reason == "step_budget" and env.num_steps == 12
    metrics = env.metrics()
    assert metrics["success"] == 0.0 and metrics["pfs"] == 0.0


def test_exploration_labels_and_start_headings() -> None:
    env = make_env("repeated", 0, 4)
    assert [step.action for step in env.exploration()] == ["F", "R", "R", "L", None]
    reversed_env = make_env("reversed", 3, 0)  # arrived at (1,2) heading west; turned around: east
    assert reversed_env.state.heading == 1
    assert reversed_env.step("F").moved and reversed_env.state.node == (4, 2)


def test_dead_end_turns_the_agent_around() -> None:
    maze = parse_maze_text("0 0 0 0 0\n0 0 0 0 0\n1 1 1 1 1\n0 0 1 0 0\n0 0 1 0 0\n", "Maze_5x5_D3_T0_J1+0")
    graph = build_key_graph(maze)
    episode = build_episode("repeated", maze.name, "t", graph, [(2, 0), (2, 2), (0, 2)], 0, 2, Constraints())
    other = build_episode("repeated", maze.name, "u", graph, [(2, 2), (4, 2)], 0, 1, Constraints())
    env = GraphNavEnv(episode, graph, BlankViews(), get_condition("C1"), EnvConfig())
    assert env.step("front").moved and env.state.node == (2, 2)
    assert (
        env.step("right").moved and env.state.node == (4, 2) and env.state.heading == 3
    )  # turned to face west
    env2 = GraphNavEnv(other, graph, BlankViews(), get_condition("C1"), EnvConfig())
    assert env2.step("Front").success
