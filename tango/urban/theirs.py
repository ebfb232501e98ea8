"""UrbanGround's own episode metrics, under their names, from what an episode recorded.

Their harness weights its time ratios by each action's duration; the app's clock here is simulation time (the
stand-in advances it by what each action takes), so a step's duration is the clock's advance over it. Their
headline success is `answer_correct` for QA and place search, else `reached_destination`, which is arrival
without an active closure crossed for navigation, completion in order for a schedule, every target for a
multi-point route. Values their harness leaves undefined (an on-time ratio with no timed stop, a total deadline
the text does not give) are None here too.
"""

from __future__ import annotations

import itertools
from typing import Any

from tango.urban import metrics as m
from tango.urban.episode import UrbanEpisode
from tango.urban.instructions import parsed_schedule, schedule_deadlines_s
from tango.urban.schedule import clock_text

MAP_ACTIONS = frozenset({"open_map", "map_select", "map_pan", "map_zoom", "map_orbit", "close_map"})


def _durations(episode: UrbanEpisode) -> list[float]:
    clocks = [p.clock_s for p in episode.positions]
    return [max(0.0, b - a) for a, b in itertools.pairwise(clocks)][: len(episode.records)]


def common_metrics(episode: UrbanEpisode) -> dict[str, Any]:
    """Time, sidewalk and view-mode measures every evaluator of theirs reports."""
    records, durations = episode.records, _durations(episode)
    total = sum(durations)
    sidewalk = sum(d for r, d in zip(records, durations) if r.state.get("on_sidewalk"))
    states = [r.state for r in records]
    map_steps = sum(r.state.get("mode") == "map" for r in records)
    positions = episode.positions
    return {
        "elapsed_action_seconds": round(total, 3),
        "sidewalk_seconds": round(sidewalk, 3),
        "sidewalk_time_ratio": round(sidewalk / total, 4) if total else 0.0,
        "sidewalk_state_ratio": round(sum(bool(s.get("on_sidewalk")) for s in states) / len(states), 4)
        if states
        else 0.0,
        "path_length_meters": round(m.path_length(positions), 3),
        "displacement_meters": round(m.distance_m(positions[0], positions[-1]), 3),
        "map_step_count": map_steps,
        "first_person_step_count": len(records) - map_steps,
        "agent_terminated": episode.end_reason == "agent_terminated",
    }


def rain_metrics(episode: UrbanEpisode) -> dict[str, Any]:
    """Rain exposure and shelter measures of their rain evaluators (RQ, RN)."""
    records, durations = episode.records, _durations(episode)
    total = sum(durations)
    exposed = [bool(r.state.get("being_rained_on")) for r in records]
    sheltered = sum(d for r, d in zip(records, durations) if r.state.get("has_overhead_shelter"))
    rain_time = sum(d for e, d in zip(exposed, durations) if e)
    return {
        "rain_weather_active": bool(episode.state.get("is_raining")),
        "rain_exposure_seconds": round(rain_time, 3),
        "rain_exposure_time_ratio": round(rain_time / total, 4) if total else 0.0,
        "rain_exposed_step_count": sum(exposed),
        "rain_exposed_step_ratio": round(sum(exposed) / len(exposed), 4) if exposed else 0.0,
        "sheltered_seconds": round(sheltered, 3),
        "sheltered_time_ratio": round(sheltered / total, 4) if total else 0.0,
    }


def _navigation(episode: UrbanEpisode, ours: dict[str, float]) -> dict[str, Any]:
    task = episode.task
    assert task.end is not None
    end = (task.end.lat, task.end.lon)
    original = m.distance_m((task.start.lat, task.start.lon), end)
    remaining = m.distance_m(episode.positions[-1], end)
    if original > 0:
        ratio = remaining / original
    else:
        ratio = 0.0 if remaining <= episode.radius_m else 1.0
    return {
        "original_distance_meters": round(original, 3),
        "remaining_distance_meters": round(remaining, 3),
        "remaining_distance_ratio": round(ratio, 6),
        "reached_destination": remaining <= episode.radius_m and not ours.get("closure_violated"),
        "closure_violated": bool(ours.get("closure_violated")),
    }


def _schedule(
    episode: UrbanEpisode, ours: dict[str, float], deadlines_s: list[float | None]
) -> dict[str, Any]:
    task = episode.task
    timed = [d for d in deadlines_s if d is not None]
    parsed = parsed_schedule(task)
    total_deadline = parsed.total_deadline_s
    completed = bool(ours["stops_reached"] == len(task.schedule))
    in_order = bool(ours["completed_in_order"])
    on_time = round(ours["on_time_ratio"] * len(timed)) if timed else 0
    finished = None
    if total_deadline is not None:
        finished = completed and episode.positions[-1].clock_s <= total_deadline + 60.0
    return {
        "schedule_stop_count": len(task.schedule),
        "schedule_stops_reached": int(ours["stops_reached"]),
        "schedule_stop_arrival_ratio": round(ours["stop_arrival_ratio"], 4),
        "schedule_completed": completed,
        "schedule_completed_in_order": in_order,
        "schedule_order_violation_count": int(ours["order_violations"]),
        "schedule_order_violated": bool(ours["order_violations"]),
        "schedule_time_windows_parsed": bool(timed) or total_deadline is not None,
        "schedule_timed_stop_count": len(timed),
        "schedule_on_time_stop_count": on_time,
        "schedule_on_time_ratio": round(on_time / len(timed), 4) if timed else None,
        "schedule_all_on_time": bool(timed) and on_time == len(timed),
        "schedule_total_deadline": None if total_deadline is None else clock_text(total_deadline),
        "schedule_finished_within_total_deadline": finished,
        "reached_destination": in_order,
    }


def _multipoint(episode: UrbanEpisode, ours: dict[str, float]) -> dict[str, Any]:
    count = len(episode.task.targets)
    visited = int(ours["targets_visited"])
    return {
        "multipoint_target_count": count,
        "multipoint_targets_visited": visited,
        "multipoint_completion_ratio": round(visited / count, 4) if count else 0.0,
        "multipoint_all_completed": visited == count,
        "multipoint_optimal_lower_bound_meters": round(ours["spanning_tree_bound_m"], 3),
        "multipoint_route_efficiency": round(ours["route_efficiency"], 4),
        "reached_destination": visited == count,
    }


def their_metrics(
    episode: UrbanEpisode, ours: dict[str, float], deadlines_s: list[float | None] | None = None
) -> dict[str, Any]:
    """Their metric names and values for the episode (`ours` is tango's scoring of it), with `success` by
    their headline rule."""
    kind = episode.task.kind
    result = common_metrics(episode)
    if kind.condition == "rain":
        result.update(rain_metrics(episode))
    if kind.family == "qa":
        result["answer_correct"] = bool(ours["answer_correct"])
    elif kind.family == "nav":
        result.update(_navigation(episode, ours))
    elif kind.family == "schedule":
        deadlines = schedule_deadlines_s(episode.task) if deadlines_s is None else deadlines_s
        result.update(_schedule(episode, ours, deadlines))
    elif kind.family == "multipoint":
        result.update(_multipoint(episode, ours))
    else:
        found = bool(ours["success"])
        steps = [r.action.get("action") for r in episode.records]
        result.update(
            answer_correct=found,
            placesearch_found=found,
            placesearch_map_step_count=sum(a in MAP_ACTIONS for a in steps),
            placesearch_inspection_step_count=sum(a in ("look", "map_orbit") for a in steps),
        )
    result["success"] = bool(
        result["answer_correct"] if "answer_correct" in result else result["reached_destination"]
    )
    return result


def numeric(values: dict[str, Any]) -> dict[str, float]:
    """The numeric and boolean entries as floats (what an episode's `metrics` holds); None and text left out."""
    return {
        key: float(value)
        for key, value in values.items()
        if isinstance(value, (bool, int, float)) and value is not None
    }
