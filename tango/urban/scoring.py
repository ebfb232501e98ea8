"""An episode's metrics from what was recorded (positions with the clock, the answer) and the task's hidden
fields, by the rules of tango.urban.metrics. Every kind reports `success`; errors are scored by `failure_metrics`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from tango.urban import metrics as m
from tango.urban.episode import UrbanEpisode
from tango.urban.geo import haversine_m
from tango.urban.instructions import schedule_deadlines_s, schedule_now_s
from tango.urban.taskfile import UrbanTask
from tango.urban.theirs import numeric, their_metrics


class UngradableTask(ValueError):
    """The task file lacks what its grading needs (a place search without ground-truth places)."""


def _unwrap(deadline: float | None, reference: float) -> float | None:
    if deadline is None:
        return None
    while deadline < reference - 60.0:
        deadline += 86400.0
    return deadline


def score(
    episode: UrbanEpisode,
    grace_s: float = m.ON_TIME_GRACE_S,
    reference_length_m: float | None = None,
    judge: Callable[[UrbanEpisode], Any] | None = None,
) -> tuple[dict[str, float], dict[str, Any]]:
    """The episode's metrics: UrbanGround's under their names (tango.urban.theirs; `success` by their rule)
    beside tango's own measures, and the full record of theirs (with None and text values). A place search
    without ground-truth places is graded by `judge` (their way), or is an UngradableTask without one."""
    task, positions, radius = episode.task, episode.positions, episode.radius_m
    family = task.kind.family
    extra: dict[str, Any] = {}
    deadlines: list[float | None] | None = None
    if family == "qa":
        assert task.answer_letter is not None
        result = m.qa_metrics(episode.answer, task.answer_letter)
    elif family == "nav":
        assert task.end is not None
        crossings: list[m.Crossing] = []
        if task.kind.closures != "none":
            active = 1 if task.kind.closures == "upfront" else episode.closure_active_from
            zones = [(z.label, z.vertices) for z in task.zones]
            crossings = m.closure_crossings(positions, zones, active) if active is not None else []
        result = m.navigation_metrics(
            positions, (task.end.lat, task.end.lon), reference_length_m, crossings, radius
        )
    elif family == "multipoint":
        result = m.multipoint_metrics(positions, [(t.point.lat, t.point.lon) for t in task.targets], radius)
    elif family == "schedule":
        now = schedule_now_s(task) or positions[0].clock_s
        deadlines = [_unwrap(d, now) for d in schedule_deadlines_s(task)]
        result = m.schedule_metrics(
            positions, [(s.target.lat, s.target.lon) for s in task.schedule], deadlines, radius, grace_s
        )
        result["time_windows_parsed"] = float(any(d is not None for d in deadlines))
    elif task.place_candidates:
        result = m.place_search_metrics(positions, [(p.lat, p.lon) for p in task.place_candidates], radius)
    elif judge is not None:
        verdict = judge(episode)
        result = {"success": float(verdict.found), "path_length_m": m.path_length(positions)}
        extra = {"placesearch_judge_reason": verdict.reason, "placesearch_judge_error": verdict.error}
    else:
        raise UngradableTask(
            f"{task.id}: a place search without ground-truth places (placeCandidates) is graded by a judge of "
            "the final view; set urban.judge.model (and base_url) to grade it"
        )
    tango_success = result["success"]
    theirs = {**their_metrics(episode, result, deadlines if family == "schedule" else None), **extra}
    result.update(numeric(theirs))
    if family == "schedule":
        result["schedule_success_on_time"] = tango_success  # tango's stricter rule: in order and on time
    state = episode.state
    result.update(
        num_steps=float(episode.steps),
        invalid_actions=float(episode.invalid_actions),
        pedestrian_collisions=float(state.get("pedestrian_collisions") or 0),
        building_collisions=float(state.get("building_collisions") or 0),
    )
    return result, theirs


def reference_length_to_radius(route: list[list[float]], goal: tuple[float, float], radius_m: float) -> float:
    """Metres along a reference route (lat, lon points) until it first comes within the arrival radius: the
    shortest walk that succeeds, the SPL reference (the route to the goal itself is up to a radius longer)."""
    walked = 0.0
    for (lat0, lon0), (lat1, lon1) in itertools.pairwise(route):
        length = haversine_m(lat0, lon0, lat1, lon1)
        pieces = max(1, int(length))
        for k in range(pieces):
            t0, t1 = k / pieces, (k + 1) / pieces
            a = (lat0 + (lat1 - lat0) * t0, lon0 + (lon1 - lon0) * t0)
            if haversine_m(*a, *goal) <= radius_m:
                return walked
            walked += length / pieces
            b = (lat0 + (lat1 - lat0) * t1, lon0 + (lon1 - lon0) * t1)
            if haversine_m(*b, *goal) <= radius_m:
                return walked
    return walked


def failure_metrics(task: UrbanTask | None = None) -> dict[str, float]:
    """What an episode that raised is scored with: it failed."""
    return {"success": 0.0}


def failure_reason(episode: UrbanEpisode, metrics: dict[str, float]) -> str | None:
    """None on success, else why: closure_crossed, wrong_answer, no_answer, step_limit, stopped_short, ..."""
    if metrics.get("success"):
        return None
    family = episode.task.kind.family
    if episode.end_reason == "closure_crossed":
        return "closure_crossed"
    if family == "qa":
        return "wrong_answer" if metrics.get("answer_valid") else "no_answer"
    if family == "schedule" and metrics.get("completed_in_order"):
        return "late"
    if family == "schedule" and metrics.get("order_violations"):
        return "out_of_order"
    if episode.end_reason == "step_limit":
        return "step_limit"
    return f"stopped_short: {episode.end_reason}" if episode.end_reason else "stopped_short"


def summary_fields(episode: UrbanEpisode) -> dict[str, Any]:
    """Extra fields for the episode record: kind, rung, end reason, the walked route (lat, lon)."""
    return {
        "kind": episode.task.kind.name,
        "prefix": episode.task.kind.prefix,
        "rung": episode.task.kind.rung,
        "end_reason": episode.end_reason,
        "answer": episode.answer,
        "route": [[round(p.lat, 7), round(p.lon, 7)] for p in episode.positions],
        "notices": list(episode.notices),
    }
