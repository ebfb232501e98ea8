"""One cause per failed episode or GOAT subtask, by fixed rules over what the trace shows the agent did and
where the goal really was (docs/traces.md, "Failure analysis"). The rules are pure: the goal enters only as a
distance function and a visibility answer computed elsewhere (tango.analysis.ground)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tango.trace.reader import PROGRAM_ERRORS, Segment

EPISODE_ERROR = "episode_error"
PROGRAM_ERROR = "program_error"
FALSE_DETECTION = "false_detection"
NAVIGATION_STOP = "navigation_stop"
MISSED_DETECTION = "missed_detection"
STEP_BUDGET = "step_budget"
EXPLORATION_ENDED = "exploration_ended"
WRONG_ANSWER = "wrong_answer"
OTHER = "other"

CAUSES = {
    EPISODE_ERROR: "the episode raised: the harness recorded an exception",
    PROGRAM_ERROR: "no program, or the program stopped on an error before any stop",
    FALSE_DETECTION: "stopped at something that is not the goal",
    NAVIGATION_STOP: "went for the real goal but did not stop within the success radius",
    MISSED_DETECTION: "the goal was in view but never detected",
    STEP_BUDGET: "the step budget ran out before the goal was in view, or after it was detected",
    EXPLORATION_ENDED: "exploration or the program ended before the goal was ever in view",
    WRONG_ANSWER: "the evidence was in view (or is not annotated) and the answer was wrong",
    OTHER: "task without a ground-truth analysis: its own failure reason",
}
ON_GOAL_M = 0.5
"""A detected or targeted point within this distance of a goal instance's box is on that instance."""

Distance = Callable[[Sequence[float]], float]
Seen = Callable[[], int | None]


@dataclass
class Evidence:
    """What one (sub)task's trace shows, up to its first stop."""

    stop_pose: list[float] | None = None
    stopped_by_program: bool = False
    headed: list[float] | None = None
    found: list[list[float]] = field(default_factory=list)
    program_errors: list[str] = field(default_factory=list)
    no_program: bool = False
    budget_ended: bool = False
    explored_all: bool = False
    steps: int = 0


def evidence(segment: Segment) -> Evidence:
    """The evidence of a segment: its first stop (and whether a program called it), the last point it
    navigated toward before that, every object handle a call returned before it, program errors, and how the
    search ended."""
    found = Evidence(no_program=segment.generation_failed)
    in_program, last_pose = segment.program_running, segment.start_pose
    for event in segment.events:
        kind = event.get("event")
        before_stop = found.stop_pose is None
        if kind == "program":
            in_program = True
        elif kind == "end":
            in_program = False
            reason = str(event.get("stop_reason"))
            if before_stop and reason in PROGRAM_ERRORS:
                found.program_errors.append(reason)
            found.budget_ended = found.budget_ended or reason == "step_budget"
        elif kind == "error" and before_stop and event.get("reason") in PROGRAM_ERRORS:
            found.program_errors.append(str(event.get("message") or event.get("reason")))
        elif kind == "stop" and before_stop:
            found.stop_pose = (event.get("poses") or [last_pose])[0]
            found.stopped_by_program = in_program
        elif kind == "call" and before_stop:
            found.found.extend(obj["position"] for obj in event.get("objects") or [])
            found.headed = event.get("goal", found.headed)
            found.explored_all = found.explored_all or bool(event.get("explored_all"))
        if event.get("poses"):
            last_pose = event["poses"][-1]
            found.steps += len(event["poses"]) if kind != "stop" else 0
    found.program_errors = list(dict.fromkeys(found.program_errors))
    return found


def navigation_cause(
    ev: Evidence, distance: Distance, seen: Seen, success_distance: float
) -> tuple[str, str]:
    """The cause of a failed navigation (sub)task and a one-line account of it."""
    on_goal = [p for p in ev.found if distance(p) <= ON_GOAL_M]
    if ev.stop_pose is not None and ev.stopped_by_program and ev.headed is not None:
        gap = distance(ev.headed)
        if gap <= ON_GOAL_M:
            away = distance(ev.stop_pose[:3])
            return (
                NAVIGATION_STOP,
                f"drove toward the goal ({gap:.2f} m off it) but stopped {away:.2f} m from it",
            )
        return FALSE_DETECTION, f"stopped; its last navigation target was {gap:.2f} m from the nearest goal"
    if ev.stop_pose is not None and ev.stopped_by_program and ev.found:
        if on_goal:
            away = distance(ev.stop_pose[:3])
            return (
                NAVIGATION_STOP,
                f"detected the goal but stopped {away:.2f} m from it without driving there",
            )
        gap = min(distance(p) for p in ev.found)
        return FALSE_DETECTION, f"stopped on a detection; the nearest handle was {gap:.2f} m from the goal"
    if ev.no_program or ev.program_errors:
        return PROGRAM_ERROR, "no program" if ev.no_program else "; ".join(ev.program_errors)
    if on_goal and ev.budget_ended:
        return STEP_BUDGET, f"detected the goal ({len(on_goal)} handles on it); the step budget ran out first"
    if on_goal:
        return NAVIGATION_STOP, f"detected the goal ({len(on_goal)} handles on it) but never stopped at it"
    first_view = seen()
    if first_view is not None:
        return MISSED_DETECTION, f"the goal was in view after {first_view} steps, never detected"
    return _unseen(ev, "the goal")


def answer_cause(ev: Evidence, seen_all: bool | None) -> tuple[str, str]:
    """The cause of a wrong answer: `seen_all` says whether every evidence object was in view (None when the
    question names no evidence)."""
    if ev.no_program or ev.program_errors:
        return PROGRAM_ERROR, "no program" if ev.no_program else "; ".join(ev.program_errors)
    if seen_all is False:
        return _unseen(ev, "some evidence object")
    if seen_all is None and ev.budget_ended:
        return STEP_BUDGET, "the step budget ran out (the question names no evidence objects)"
    return WRONG_ANSWER, "the evidence was in view" if seen_all else "no evidence annotated; answered wrong"


def _unseen(ev: Evidence, what: str) -> tuple[str, str]:
    if ev.budget_ended:
        return STEP_BUDGET, f"{what} never in view in {ev.steps} steps; the step budget ran out"
    ended = "explore_scene found nothing left to explore" if ev.explored_all else "the program ended"
    if ev.stop_pose is not None and ev.stopped_by_program:
        ended += " (it stopped without a detection)"
    return EXPLORATION_ENDED, f"{what} never in view in {ev.steps} steps; {ended}"


def record_cause(record: dict[str, object]) -> tuple[str, str]:
    """The cause from an episode record alone (tasks without a ground-truth analysis, GraphNav, UrbanGround)."""
    extra = record.get("extra")
    stop_reason = str(extra.get("stop_reason")) if isinstance(extra, dict) else ""
    reason = str(record.get("failure_reason") or "")
    named = reason.split(":", 1)[0].strip()
    if stop_reason in PROGRAM_ERRORS or named in PROGRAM_ERRORS:
        return PROGRAM_ERROR, reason or stop_reason
    if "step_budget" in (stop_reason, named):
        return STEP_BUDGET, reason or "the step budget ran out"
    return OTHER, reason or "no failure reason recorded"
