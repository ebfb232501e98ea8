"""UrbanGround's measures, with the faults of their harness fixed (each rule cited where it differs).

- Arrival: within `radius_m` (15 m) haversine of the target, altitude ignored (their `compute_common_metrics`).
- Closures: the segment between two consecutive positions crossing any edge of a closure polyline fails the
  episode (their ClosureCrossingDetector), tested in a local metric frame about the task start.
- Multi-point efficiency: minimum spanning tree over the start and the targets actually visited, divided by the
  path length walked, capped at 1 (an arrival radius lets a path be a little shorter than the tree).
- Schedule: stops count only in order; a stop is on time when reached by its deadline plus `grace_s` (their 60 s);
  a timed stop never reached is late. Success needs every stop in order *and* on time (their headline ignored
  punctuality).
- QA: accuracy by letter; only a reply that is exactly one of A-D (optionally "Option X") is an answer.
- Place search: success when the agent ends within the radius of a ground-truth place of the requested kind,
  never by the agent's own claim or a judge's reading of it (theirs let `bool("false")` count as found).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tango.urban.geo import LocalFrame, haversine_m, path_length_m, segments_intersect, spanning_tree_m

ARRIVAL_RADIUS_M = 15.0
ON_TIME_GRACE_S = 60.0
LETTERS = "ABCD"
_LETTER = re.compile(r"(?:OPTION\s*)?([A-D])")


@dataclass(frozen=True)
class Position:
    """Where the agent was after a step (step 0 is the start) and the simulation clock then (seconds)."""

    lat: float
    lon: float
    step: int = 0
    clock_s: float = 0.0


def distance_m(a: Position | tuple[float, float], b: Position | tuple[float, float]) -> float:
    la, oa = (a.lat, a.lon) if isinstance(a, Position) else a
    lb, ob = (b.lat, b.lon) if isinstance(b, Position) else b
    return haversine_m(la, oa, lb, ob)


def first_arrival(
    positions: Sequence[Position], target: tuple[float, float], radius_m: float = ARRIVAL_RADIUS_M
) -> Position | None:
    """The first position within the radius of the target, or None."""
    return next((p for p in positions if distance_m(p, target) <= radius_m), None)


@dataclass(frozen=True)
class Crossing:
    """A move between two consecutive positions that crossed an edge of a closure."""

    step: int
    zone: str
    edge: int


def closure_crossings(
    positions: Sequence[Position],
    zones: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    active_from_step: int = 1,
) -> list[Crossing]:
    """Every (step, zone, edge) where the move into `step` crossed a closure edge; moves before
    `active_from_step` (a closure not yet disclosed) do not count."""
    if not positions or not zones:
        return []
    frame = LocalFrame(positions[0].lat, positions[0].lon)
    edges = [
        (label, index, frame.to_local(*vertices[index]), frame.to_local(*vertices[index + 1]))
        for label, vertices in zones
        for index in range(len(vertices) - 1)
    ]
    crossings = []
    for before, after in itertools.pairwise(positions):
        if after.step < active_from_step:
            continue
        a, b = frame.to_local(before.lat, before.lon), frame.to_local(after.lat, after.lon)
        if a == b:
            continue
        for label, index, start, end in edges:
            if segments_intersect(a, b, start, end):
                crossings.append(Crossing(after.step, label, index))
    return crossings


def path_length(positions: Sequence[Position]) -> float:
    return path_length_m((p.lat, p.lon) for p in positions)


def navigation_metrics(
    positions: Sequence[Position],
    target: tuple[float, float],
    reference_length_m: float | None = None,
    crossings: Sequence[Crossing] = (),
    radius_m: float = ARRIVAL_RADIUS_M,
) -> dict[str, float]:
    """success (arrived and never crossed an active closure), distances, path length, SPL when a reference
    route length is known."""
    arrival = first_arrival(positions, target, radius_m)
    walked = path_length(positions[: positions.index(arrival) + 1] if arrival else positions)
    success = arrival is not None and not crossings
    metrics = {
        "success": float(success),
        "reached_destination": float(arrival is not None),
        "closure_violated": float(bool(crossings)),
        "distance_to_goal_m": distance_m(positions[-1], target),
        "start_distance_m": distance_m(positions[0], target),
        "path_length_m": walked,
    }
    if reference_length_m is not None and reference_length_m > 0:
        metrics["spl"] = float(success) * reference_length_m / max(walked, reference_length_m)
    return metrics


def multipoint_metrics(
    positions: Sequence[Position], targets: Sequence[tuple[float, float]], radius_m: float = ARRIVAL_RADIUS_M
) -> dict[str, float]:
    """Targets visited in any order (first entry into each radius), completion, and route efficiency."""
    visits = sorted(
        (arrival.step, index)
        for index, target in enumerate(targets)
        if (arrival := first_arrival(positions, target, radius_m)) is not None
    )
    visited = [targets[index] for _, index in visits]
    walked = path_length(positions)
    start = (positions[0].lat, positions[0].lon)
    bound = spanning_tree_m([start, *visited]) if visited else 0.0
    efficiency = min(1.0, bound / walked) if walked > 0 and visited else 0.0
    return {
        "success": float(len(visited) == len(targets)),
        "targets_visited": float(len(visited)),
        "completion_ratio": len(visited) / len(targets) if targets else 0.0,
        "route_efficiency": efficiency,
        "spanning_tree_bound_m": bound,
        "path_length_m": walked,
    }


def schedule_metrics(
    positions: Sequence[Position],
    stops: Sequence[tuple[float, float]],
    deadlines_s: Sequence[float | None],
    radius_m: float = ARRIVAL_RADIUS_M,
    grace_s: float = ON_TIME_GRACE_S,
) -> dict[str, float]:
    """In-order arrivals, order violations (entering a later stop first) and punctuality with grace."""
    next_stop = 0
    arrivals: list[Position] = []
    violated: set[int] = set()
    for position in positions:
        for later in range(next_stop + 1, len(stops)):
            if later not in violated and distance_m(position, stops[later]) <= radius_m:
                violated.add(later)
        while next_stop < len(stops) and distance_m(position, stops[next_stop]) <= radius_m:
            arrivals.append(position)
            next_stop += 1
    timed = [index for index, deadline in enumerate(deadlines_s) if deadline is not None]
    on_time = [
        index
        for index in timed
        if index < len(arrivals) and arrivals[index].clock_s <= float(deadlines_s[index] or 0.0) + grace_s
    ]
    completed = next_stop == len(stops)
    all_on_time = len(on_time) == len(timed)
    return {
        "success": float(completed and not violated and all_on_time),
        "stops_reached": float(len(arrivals)),
        "stop_arrival_ratio": len(arrivals) / len(stops) if stops else 0.0,
        "completed_in_order": float(completed and not violated),
        "order_violations": float(len(violated)),
        "on_time_ratio": len(on_time) / len(timed) if timed else 1.0,
        "path_length_m": path_length(positions),
    }


def parse_letter(reply: object) -> str | None:
    """The answer letter of a reply that is exactly one of A-D (or "Option X"); None otherwise."""
    match = _LETTER.fullmatch(str(reply or "").strip().upper())
    return match.group(1) if match else None


def qa_metrics(reply: object, correct_letter: str) -> dict[str, float]:
    letter = parse_letter(reply)
    correct = letter is not None and letter == correct_letter
    return {
        "success": float(correct),
        "answer_correct": float(correct),
        "answer_valid": float(letter is not None),
    }


def place_search_metrics(
    positions: Sequence[Position], places: Sequence[tuple[float, float]], radius_m: float = ARRIVAL_RADIUS_M
) -> dict[str, float]:
    """Success when the final position is within the radius of any ground-truth place."""
    if not places:
        raise ValueError("place search needs at least one ground-truth place to be graded")
    nearest = min(distance_m(positions[-1], place) for place in places)
    return {
        "success": float(nearest <= radius_m),
        "distance_to_goal_m": nearest,
        "path_length_m": path_length(positions),
    }
