"""The failure-cause rules on hand-written trace segments: each cause from the evidence that defines it."""

from __future__ import annotations

from typing import Any

import pytest

from tango.analysis import causes
from tango.analysis.breakdown import failed_cases
from tango.tasks.goat import GoatTask
from tango.tasks.openeqa import OpenEQATask
from tango.trace.reader import segments

START = [0.0, 0.0, 0.0, 0.0, 0.0]
GOAL = (5.0, 0.5, 0.0)


def distance(point: Any) -> float:
    return float(sum((a - b) ** 2 for a, b in zip(point[:3], GOAL)) ** 0.5)


def call(name: str, steps: int = 0, **fields: Any) -> dict[str, Any]:
    poses = [[float(i), 0.0, 0.0, 0.0, 0.0] for i in range(steps)]
    return {
        "event": "call",
        "name": name,
        "line": 1,
        "steps": steps,
        **({"poses": poses} if poses else {}),
        **fields,
    }


def segment(*events: dict[str, Any], reason: str = "completed") -> Any:
    trace = [{"event": "start", "poses": [START]}, {"event": "program", "source": "x"}, *events]
    trace.append({"event": "end", "stop_reason": reason})
    return segments(trace)[0]


def nav(*events: dict[str, Any], reason: str = "completed", seen: int | None = None) -> str:
    ev = causes.evidence(segment(*events, reason=reason))
    return causes.navigation_cause(ev, distance, lambda: seen, 1.0)[0]


def stop(x: float) -> dict[str, Any]:
    return {"event": "stop", "number": 1, "poses": [[x, 0.0, 0.0, 0.0, 0.0]]}


def test_a_stop_after_heading_for_another_object_is_a_false_detection() -> None:
    assert nav(call("navigate_to", 2, goal=[1.0, 0.5, 0.0]), stop(1.0)) == causes.FALSE_DETECTION


def test_a_stop_after_heading_for_the_goal_is_a_navigation_or_stop_error() -> None:
    assert nav(call("navigate_to", 2, goal=[5.2, 0.5, 0.0]), stop(3.0)) == causes.NAVIGATION_STOP


def test_a_stop_on_a_detection_without_driving_to_it_is_judged_by_the_detection() -> None:
    on_goal = {"label": "tv", "position": [5.1, 0.5, 0.0], "score": 0.9}
    elsewhere = {"label": "tv", "position": [0.0, 0.5, 3.0], "score": 0.9}
    assert nav(call("detect", objects=[on_goal]), stop(0.0)) == causes.NAVIGATION_STOP
    assert nav(call("detect", objects=[elsewhere]), stop(0.0)) == causes.FALSE_DETECTION


def test_a_stop_without_any_detection_is_judged_by_what_was_in_view() -> None:
    assert nav(call("explore_scene", 3, explored_all=True), stop(3.6)) == causes.EXPLORATION_ENDED
    assert nav(call("explore_scene", 3), stop(2.0), seen=2) == causes.MISSED_DETECTION


def test_the_runners_stop_after_a_program_ends_is_not_the_programs_stop() -> None:
    trace = [{"event": "start", "poses": [START]}, {"event": "program", "source": "x"}]
    trace += [
        call("explore_scene", 3, explored_all=True),
        {"event": "end", "stop_reason": "completed"},
        stop(2.0),
    ]
    ev = causes.evidence(segments(trace)[0])
    assert not ev.stopped_by_program and ev.explored_all
    assert causes.navigation_cause(ev, distance, lambda: None, 1.0)[0] == causes.EXPLORATION_ENDED


def test_program_errors_and_missing_programs() -> None:
    assert nav(call("detect"), reason="runtime_error") == causes.PROGRAM_ERROR
    ev = causes.evidence(segments([{"event": "start", "poses": [START]}, {"event": "generation"}])[0])
    assert (
        ev.no_program and causes.navigation_cause(ev, distance, lambda: None, 1.0)[0] == causes.PROGRAM_ERROR
    )


def test_detected_but_not_stopped_is_navigation_or_the_budget() -> None:
    handle = {"label": "tv", "position": [5.1, 0.5, 0.0], "score": 0.9}
    assert nav(call("detect", objects=[handle])) == causes.NAVIGATION_STOP
    assert nav(call("detect", objects=[handle]), reason="step_budget") == causes.STEP_BUDGET


def test_seen_never_detected_unseen_with_the_budget_or_without() -> None:
    elsewhere = {"label": "tv", "position": [0.0, 0.5, 3.0], "score": 0.9}
    assert nav(call("detect", objects=[elsewhere]), seen=4) == causes.MISSED_DETECTION
    assert nav(call("explore_scene", 5), reason="step_budget") == causes.STEP_BUDGET
    assert nav(call("explore_scene", 5, explored_all=True)) == causes.EXPLORATION_ENDED


@pytest.mark.parametrize(
    ("seen_all", "reason", "expected"),
    [
        (True, "completed", causes.WRONG_ANSWER),
        (False, "step_budget", causes.STEP_BUDGET),
        (False, "completed", causes.EXPLORATION_ENDED),
        (None, "completed", causes.WRONG_ANSWER),
        (None, "runtime_error", causes.PROGRAM_ERROR),
    ],
)
def test_answer_causes(seen_all: bool | None, reason: str, expected: str) -> None:
    ev = causes.evidence(segment(call("answer"), reason=reason))
    assert causes.answer_cause(ev, seen_all)[0] == expected


def test_records_of_tasks_without_ground_truth_analysis() -> None:
    assert causes.record_cause({"extra": {"stop_reason": "loop_cap"}})[0] == causes.PROGRAM_ERROR
    assert causes.record_cause({"extra": {"stop_reason": "step_budget"}})[0] == causes.STEP_BUDGET
    assert causes.record_cause({"failure_reason": "step_budget"})[0] == causes.STEP_BUDGET  # GraphNav's words
    assert causes.record_cause({"failure_reason": "wrong_turn"}) == (causes.OTHER, "wrong_turn")


def test_failed_cases_are_failed_subtasks_or_failed_episodes() -> None:
    goat, eqa = GoatTask(), OpenEQATask()
    record = {"episode_id": 1, "subtasks": [{"success": 1.0}, {"success": 0.0, "goal_type": "image"}]}
    assert failed_cases(record, goat) == [{"episode_id": "1", "subtask": 1, "goal_type": "image"}]
    assert failed_cases({"episode_id": "q", "metrics": {"normalised_match": 0.0}}, eqa)[0]["subtask"] is None
    assert (
        failed_cases({"episode_id": "q", "metrics": {"llm_match": 75.0, "normalised_match": 0.0}}, eqa) == []
    )
    assert len(failed_cases({"episode_id": "q", "metrics": {"normalised_match": 25.0}}, eqa)) == 1  # 0-100
    assert len(failed_cases({"episode_id": "e", "status": "error", "metrics": {"success": 0.0}}, goat)) == 1


def test_one_program_for_a_whole_goat_episode_is_split_at_its_subtask_events() -> None:
    """GOAT with one program per episode: later subtasks begin inside the running program, so their stops are
    the program's and they are not 'no program'."""
    trace = [
        {"event": "start", "poses": [START]},
        {"event": "subtask", "index": 0, "goal_type": "object"},
        {"event": "program", "source": "x"},
        call("navigate_to", 2, goal=[5.0, 0.5, 0.0]),
        stop(4.9),
        {"event": "subtask", "index": 1, "goal_type": "image"},
        call("navigate_to", 2, goal=[1.0, 0.5, 0.0]),
        stop(1.0),
        {"event": "end", "stop_reason": "completed"},
    ]
    first, second = segments(trace)
    assert first.programs[0].end is None and not first.generation_failed
    assert not second.generation_failed and second.program_running
    assert second.start_pose == [4.9, 0.0, 0.0, 0.0, 0.0]  # where subtask 0 stopped
    ev = causes.evidence(second)
    assert ev.stopped_by_program and not ev.no_program
    assert causes.navigation_cause(ev, distance, lambda: None, 1.0)[0] == causes.FALSE_DETECTION
