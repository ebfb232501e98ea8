"""Navigation measures and the Habitat scoring rules against hand-computed values."""

from __future__ import annotations

import pytest

from tango.formats.nav_episodes import AgentState, ObjectGoal, ViewPoint
from tango.tasks.flow import NavTaskConfig, goal_points
from tango.tasks.measures import (
    DISTANCE_DEFINITIONS,
    navigation_metrics,
    scoring_rules,
    soft_spl,
    spl,
    success,
)


def test_success_is_closer_than_success_distance_and_needs_stop() -> None:
    assert success(0.99, 1.0) == 1.0
    assert success(1.01, 1.0) == 0.0
    assert success(0.2, 0.25) == 1.0
    assert success(0.25, 0.25) == 0.0  # habitat-lab's Success compares with `<`
    assert success(0.2, 1.0, called_stop=False) == 0.0


def test_spl_weights_success_by_path_efficiency() -> None:
    assert spl(1.0, 4.0, 8.0) == pytest.approx(0.5)
    assert spl(1.0, 4.0, 3.0) == pytest.approx(1.0)
    assert spl(0.0, 4.0, 4.0) == 0.0


def test_soft_spl_uses_progress_towards_goal() -> None:
    assert soft_spl(2.0, 8.0, 8.0, 16.0) == pytest.approx(0.75 * 0.5)
    assert soft_spl(10.0, 8.0, 8.0, 8.0) == 0.0


def test_navigation_metrics_bundle() -> None:
    metrics = navigation_metrics(0.5, 6.0, 5.0, 10.0, success_distance=1.0)
    assert metrics == pytest.approx(
        {"success": 1.0, "spl": 0.5, "soft_spl": (1 - 0.5 / 6.0) * 0.5, "distance_to_goal": 0.5}
    )


def test_the_lenient_radius_is_a_second_separately_named_figure() -> None:
    metrics = navigation_metrics(0.5, 6.0, 5.0, 10.0, success_distance=0.1, lenient_success_distance=1.0)
    assert metrics["success"] == 0.0 and metrics["spl"] == 0.0
    assert metrics["lenient_success"] == 1.0 and metrics["lenient_spl"] == pytest.approx(0.5)
    assert "lenient_success" not in navigation_metrics(0.5, 6.0, 5.0, 10.0, success_distance=0.1)


def test_scoring_rules_name_the_radius_and_the_distance_definition() -> None:
    task = {"name": "objectnav", "success_distance": 0.1, "distance_to": "VIEW_POINTS",
            "lenient_success_distance": 1.0, "scoring_source": "habitat-lab objectnav.yaml"}  # fmt: skip
    rules = scoring_rules(task)
    assert rules == {
        "success_distance": 0.1,
        "distance_to": "VIEW_POINTS",
        "distance_definition": DISTANCE_DEFINITIONS["VIEW_POINTS"],
        "lenient_success_distance": 1.0,
        "scoring_source": "habitat-lab objectnav.yaml",
    }
    assert scoring_rules({"name": "openeqa"}) == {"success_distance": None}


def test_goal_points_are_the_view_points_or_the_instances_positions() -> None:
    view = ViewPoint(AgentState((1.0, 0.0, 2.0), (0.0, 0.0, 0.0, 1.0)), 0.5)
    goals = [
        ObjectGoal(7, "chair", (1.5, 0.4, 2.5), (view, view)),
        ObjectGoal(8, "chair", (3.0, 0.4, 1.0), ()),
    ]
    assert goal_points(goals, "VIEW_POINTS") == [(1.0, 0.0, 2.0), (1.0, 0.0, 2.0)]
    assert goal_points(goals, "POINT") == [(1.5, 0.4, 2.5), (3.0, 0.4, 1.0)]
    with pytest.raises(ValueError, match="task.distance_to must be one of"):
        NavTaskConfig(distance_to="CENTRE")
