"""The cognitive graph from hand-written readings: building, recall, planning without backward steps, and
resolving places that look alike by moving and looking again."""

from __future__ import annotations

from tango.benchmarks.graphnav.cognitive_graph import START_PLACE, CognitiveGraph, build_from_exploration


def explored() -> CognitiveGraph:
    # start (facing 0) sees L1 ahead; at L1 it turns right towards L2 (seeing L3 on its left); at L2 it ends.
    readings = [[None, "L1", None], ["L3", None, "L2"], [None, None, "L4"]]
    graph, heading = build_from_exploration(readings, ["front", "right", None])
    assert heading == 1
    return graph


def test_exploration_builds_places_edges_and_route() -> None:
    graph = explored()
    assert graph.route == [START_PLACE, "L1", "L2"]
    assert graph.edges["L1"] == {2: START_PLACE, 3: "L3", 0: None, 1: "L2"}
    assert graph.neighbors("L4") == {0: "L2"}
    assert graph.recalled_route("L2", START_PLACE) == ["L2", "L1", START_PLACE]


def test_plans_never_step_backwards() -> None:
    graph = explored()
    assert graph.plan("L1", 0, "L2") == [("right", "L2")]
    assert graph.plan("L1", 0, "L3") == [("left", "L3")]
    assert graph.plan("L2", 1, START_PLACE) is None  # L1 is straight behind and L4 leads nowhere known


def test_start_is_renamed_once_its_landmark_is_seen() -> None:
    graph = explored()
    graph.observe("L1", 2, ["L2", "L9", "L3"])  # facing back towards where exploration began
    assert graph.resolve(START_PLACE) == "L9" and graph.route[0] == "L9"
    assert graph.plan("L2", 3, START_PLACE) == [("front", "L1"), ("left", "L9")]


def test_look_alike_places_are_told_apart_after_a_move() -> None:
    graph = CognitiveGraph()
    graph.observe("A", 0, [None, "H", None])
    graph.observe("B", 1, [None, "H", None])
    graph.observe("H", 0, ["B", "C", None])
    hypotheses = graph.candidates([None, "H", None])
    assert sorted(hypotheses) == [("A", 0), ("B", 1)]
    assert graph.advance(hypotheses, "front", ["B", "C", None]) == [("H", 0)]
    assert graph.matches("H", 1, ["B", "C", None]) is None
