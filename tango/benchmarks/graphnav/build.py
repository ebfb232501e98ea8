"""Derive an episode's published fields (arrivals, subpath, ideal path, lengths, junction count) from a walk."""

from __future__ import annotations

from tango.benchmarks.graphnav.episodes import Constraints, Episode
from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph, arrival_directions, junctions_on_path
from tango.benchmarks.graphnav.observed import published_observed_graph, shortest_on


def ideal_path_for(
    task: str, graph: KeyGraph, explore_path: list[Cell], start_idx: int, goal_idx: int
) -> list[Cell]:
    """Repeated/reversed: the explored subpath (backwards for reversed); shortcut: a shortest path of the
    published observed graph (observed.py)."""
    low, high = sorted((start_idx, goal_idx))
    forward = explore_path[low : high + 1]
    if task == "repeated":
        return forward
    if task == "reversed":
        return forward[::-1]
    observed = published_observed_graph(graph, explore_path, arrival_directions(explore_path))
    path = shortest_on(observed, explore_path[start_idx], explore_path[goal_idx])
    if path is None:
        raise ValueError(f"no observed path from {explore_path[start_idx]} to {explore_path[goal_idx]}")
    return path


def build_episode(
    task: str,
    maze_name: str,
    episode_id: str,
    graph: KeyGraph,
    explore_path: list[Cell],
    start_idx: int,
    goal_idx: int,
    constraints: Constraints,
    explore_path_len_target: int | None = None,
    ideal: list[Cell] | None = None,
) -> Episode:
    """An Episode whose derived fields follow FORMATS.md (explore_subpath in exploration order); `ideal`
    overrides the derived ideal path, and explore_path_len_target counts nodes."""
    low, high = sorted((start_idx, goal_idx))
    subpath = explore_path[low : high + 1]
    ideal = ideal or ideal_path_for(task, graph, explore_path, start_idx, goal_idx)
    return Episode(
        maze_name=maze_name,
        episode_id=episode_id,
        explore_path=list(explore_path),
        explore_arrivals=arrival_directions(explore_path),
        start_idx=start_idx,
        goal_idx=goal_idx,
        start=explore_path[start_idx],
        goal=explore_path[goal_idx],
        explore_subpath=subpath,
        ideal_path=ideal,
        explore_len_steps=len(subpath) - 1,
        ideal_len_steps=len(ideal) - 1,
        junctions_on_ideal=junctions_on_path(
            graph, ideal, include_endpoints=bool(constraints.junction_include_endpoints)
        ),
        explore_path_len_target=explore_path_len_target,
        constraints=constraints,
        task=task,
    )
