"""UrbanGround's measures against cases computed by hand (metres laid out in a local frame)."""

from __future__ import annotations

import math

import pytest

from tango.urban import metrics as m
from tango.urban.geo import LocalFrame, haversine_m, spanning_tree_m

FRAME = LocalFrame(22.3, 114.17)


def at(east: float, north: float, step: int = 0, clock_s: float = 0.0) -> m.Position:
    lat, lon = FRAME.to_geo(east, north)
    return m.Position(lat, lon, step, clock_s)


def geo(east: float, north: float) -> tuple[float, float]:
    return FRAME.to_geo(east, north)


def test_haversine_of_a_thousandth_of_a_degree_of_latitude_is_111_195_m() -> None:
    assert haversine_m(0.0, 0.0, 0.001, 0.0) == pytest.approx(6_371_000 * math.pi / 180 * 0.001, rel=1e-9)
    east, north = FRAME.to_local(*FRAME.to_geo(123.0, -45.0))
    assert (east, north) == pytest.approx((123.0, -45.0), abs=1e-6)


def test_arrival_is_within_15_m_haversine_and_altitude_plays_no_part() -> None:
    target = geo(0.0, 0.0)
    inside = [at(0.0, 40.0), at(0.0, 14.9, 1)]
    outside = [at(0.0, 40.0), at(0.0, 15.1, 1)]
    assert m.navigation_metrics(inside, target)["success"] == 1.0
    result = m.navigation_metrics(outside, target)
    assert result["success"] == 0.0 and result["distance_to_goal_m"] == pytest.approx(15.1, abs=0.01)


def test_a_move_between_two_positions_that_crosses_a_closure_line_is_found_and_fails_the_episode() -> None:
    zone = ("barrier", [geo(10.0, -5.0), geo(10.0, 5.0)])
    jumping = [at(0, 0, 0), at(20, 0, 1)]  # both positions clear of the line; the segment between crosses it
    assert m.closure_crossings(jumping, [zone]) == [m.Crossing(1, "barrier", 0)]
    short = [at(0, 0, 0), at(5, 0, 1), at(9, 0, 2), at(9, 20, 3), at(20, 20, 4)]  # goes round the end
    assert m.closure_crossings(short, [zone]) == []
    nav = m.navigation_metrics(
        jumping + [at(30, 0, 2)], geo(30, 0), crossings=m.closure_crossings(jumping, [zone])
    )
    assert nav["reached_destination"] == 1.0 and nav["success"] == 0.0 and nav["closure_violated"] == 1.0


def test_a_closure_disclosed_later_does_not_count_moves_before_it() -> None:
    zone = ("late", [geo(10.0, -5.0), geo(10.0, 5.0), geo(30.0, 5.0)])
    path = [at(0, 0, 0), at(20, 0, 1), at(20, 10, 2)]  # step 2 crosses the second edge (north 5)
    assert m.closure_crossings(path, [zone], active_from_step=2) == [m.Crossing(2, "late", 1)]
    assert [c.step for c in m.closure_crossings(path, [zone])] == [1, 2]


def test_multipoint_efficiency_is_the_spanning_tree_over_start_and_visited_targets_over_the_path() -> None:
    targets = [geo(100, 0), geo(100, 100)]
    direct = [at(0, 0, 0), at(100, 0, 1), at(100, 100, 2)]
    result = m.multipoint_metrics(direct, targets)
    assert result["success"] == 1.0 and result["route_efficiency"] == pytest.approx(1.0, abs=1e-6)
    detour = [at(0, 0, 0), at(0, 100, 1), at(100, 100, 2), at(100, 0, 3)]  # 300 m for a 200 m tree
    result = m.multipoint_metrics(detour, targets)
    assert result["route_efficiency"] == pytest.approx(200 / 300, rel=1e-4)
    half = m.multipoint_metrics([at(0, 0, 0), at(0, 50, 1), at(100, 50, 2), at(100, 0, 3)], targets)
    # visited only (100, 0): tree 100 m over a 200 m path; the unvisited target is not in the bound
    assert half["completion_ratio"] == 0.5 and half["route_efficiency"] == pytest.approx(0.5, rel=1e-4)
    assert spanning_tree_m([geo(0, 0), geo(3, 0), geo(3, 4)]) == pytest.approx(7.0, rel=1e-4)


def test_schedule_windows_count_in_order_and_on_time_with_60_s_grace() -> None:
    stops = [geo(0, 100), geo(100, 100)]
    deadlines = [600.0, 1200.0]
    on_time = [at(0, 0, 0, 0), at(0, 100, 1, 650), at(100, 100, 2, 1200)]  # 50 s late is within the grace
    result = m.schedule_metrics(on_time, stops, deadlines)
    assert result["success"] == 1.0 and result["on_time_ratio"] == 1.0
    late = [at(0, 0, 0, 0), at(0, 100, 1, 661), at(100, 100, 2, 1200)]  # 61 s late is not
    result = m.schedule_metrics(late, stops, deadlines)
    assert result["completed_in_order"] == 1.0 and result["success"] == 0.0 and result["on_time_ratio"] == 0.5
    wrong_order = [at(0, 0, 0, 0), at(100, 100, 1, 100), at(0, 100, 2, 200), at(100, 100, 3, 300)]
    result = m.schedule_metrics(wrong_order, stops, deadlines)
    assert result["order_violations"] == 1.0 and result["success"] == 0.0 and result["stops_reached"] == 2.0
    unreached = m.schedule_metrics([at(0, 0, 0, 0), at(0, 100, 1, 100)], stops, deadlines)
    assert unreached["on_time_ratio"] == 0.5 and unreached["stop_arrival_ratio"] == 0.5


def test_qa_is_scored_by_letter_and_only_an_exact_letter_is_an_answer() -> None:
    assert m.qa_metrics("B", "B")["success"] == 1.0
    assert m.qa_metrics(" option c ", "C")["success"] == 1.0
    assert m.qa_metrics("B. The bakery", "B") == {"success": 0.0, "answer_correct": 0.0, "answer_valid": 0.0}
    assert m.qa_metrics("A", "B")["answer_valid"] == 1.0 and m.qa_metrics("A", "B")["success"] == 0.0


def test_place_search_is_graded_by_the_ground_truth_place_not_by_a_claim() -> None:
    places = [geo(50, 0), geo(-200, 0)]
    assert m.place_search_metrics([at(0, 0), at(40, 0, 1)], places)["success"] == 1.0
    # standing 30 m away from every pharmacy fails whatever the agent says about it (no claim is an input)
    result = m.place_search_metrics([at(0, 0), at(20, 0, 1)], places)
    assert result["success"] == 0.0 and result["distance_to_goal_m"] == pytest.approx(30.0, abs=0.01)
    with pytest.raises(ValueError, match="ground-truth place"):
        m.place_search_metrics([at(0, 0)], [])


def test_the_spl_reference_is_the_route_until_it_enters_the_arrival_radius() -> None:
    from tango.urban.scoring import reference_length_to_radius

    route = [list(geo(0, 0)), list(geo(100, 0)), list(geo(100, 60))]  # 160 m to the goal at its end
    assert reference_length_to_radius(route, geo(100, 60), 15.0) == pytest.approx(145.0, abs=1.0)
    assert reference_length_to_radius(route, geo(0, 5), 15.0) == 0.0  # starts inside the radius
