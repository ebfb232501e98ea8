"""Task sets as UrbanGround's harness reads them: their registry's routing, skipped types, string types,
variant expansion like their `run_task.py --all`, schedule times in their descriptions' words, and their
metrics under their names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tango.urban.episode import StepRecord, UrbanEpisode
from tango.urban.kinds import UnknownKind, kind_of
from tango.urban.metrics import Position
from tango.urban.schedule import parse_schedule
from tango.urban.taskfile import load_task_dir, parse_task
from tango.urban.theirs import their_metrics
from tango.urban.variants import expand_all

P = {"lat": 22.3198, "lon": 114.1694, "height": 0.0, "yaw": 90.0, "label": ""}
Q = {"lat": 22.3200, "lon": 114.1694, "height": 0.0, "yaw": 0.0, "label": ""}
QA = {
    "description": "Which?",
    "qaStartPoint": P,
    "qaOptions": [{"text": t} for t in "wxyz"],
    "qaAnswerIndex": 1,
}
NAV = {"description": "", "startPoint": P, "endPoint": Q}
CN = {**NAV, "restrictedZones": [{"label": "works", "vertices": [P, Q]}]}


@pytest.mark.parametrize(
    ("task_id", "task_type", "evaluator"),
    [
        ("LQ-1", 7, "LandmarkQAEvaluator"),
        ("SQ-1", 9, "SpatialQAEvaluator"),
        ("XY-1", 0, "ShortNavEvaluator"),  # an unknown prefix falls back to the type
        ("RQ-OQ-1", 8, "RainOrientationQAEvaluator"),
        ("RQ-LQ-1", 7, "RainExplorationQAEvaluator"),
        ("RN-SN-1", 0, "RainShortNavEvaluator"),
        ("PD-SN-1", 0, "PedestrianShortNavEvaluator"),
        ("PL-LN-1", 2, "PedestrianLongNavEvaluator"),
        ("TSQ-SQ-1", 9, "ConditionSpatialQAEvaluator"),
        ("EVQ-LQ-1", 7, "ConditionExplorationQAEvaluator"),
        ("NTN-SN-1", 0, "ConditionShortNavEvaluator"),
        ("CLN-SN-1", 0, "ConditionShortNavEvaluator"),
        ("CN-1", 12, "DynamicClosureNavEvaluator"),
        ("II-1", 12, "ImplicitIntentNavEvaluator"),
        ("PS-1", 3, "PlaceSearchEvaluator"),
        ("SF-1", 5, "ScheduleWindowNavEvaluator"),
    ],
)
def test_each_task_goes_to_the_evaluator_their_registry_picks(
    task_id: str, task_type: int, evaluator: str
) -> None:
    assert kind_of(task_id, task_type).evaluator == evaluator


def test_variants_keep_their_conditions_and_their_source_prompt() -> None:
    night = kind_of("NTQ-OQ-1", 8)
    assert (night.weather, night.clock, night.base, night.name) == ("sunny", (23, 30), "OQ", "NightQA")
    dusk, storm = kind_of("EVN-SN-1", 0), kind_of("TSN-SN-1", 0)
    assert dusk.clock == (18, 30) and storm.weather == "thunderstorm" and storm.clock is None
    assert kind_of("RQ-SQ-1", 9).weather == "rainy" and kind_of("PD-SN-1", 0).pedestrians


@pytest.mark.parametrize(
    ("task_id", "task_type"), [("MN-1", 1), ("RQ-SN-1", 0), ("TSQ-SN-1", 0), ("SN-1", 4)]
)
def test_a_type_no_evaluator_takes_is_unknown(task_id: str, task_type: int) -> None:
    with pytest.raises(UnknownKind, match="has no UrbanGround evaluator"):
        kind_of(task_id, task_type)


def test_a_folder_skips_unknown_types_and_reads_string_types(tmp_path: Path) -> None:
    (tmp_path / "LQ-1.json").write_text(json.dumps({"id": "LQ-1", "type": "7", **QA}))
    (tmp_path / "MN-1.json").write_text(json.dumps({"task": {"id": "MN-1", "type": 1, "description": "?"}}))
    tasks, skipped = load_task_dir(tmp_path)
    assert [t.id for t in tasks] == ["LQ-1"] and tasks[0].type == 7
    assert [s.id for s in skipped] == ["MN-1"] and "type 1" in skipped[0].reason


def _sources() -> list:
    payloads = {
        "LQ-1": {"type": 7, **QA},
        "OQ-1": {"type": 8, **QA},
        "SQ-1": {"type": 9, **QA},
        "SN-1": {"type": 0, **NAV},
        "SN-2": {"type": 0, **NAV},
        "LN-1": {"type": 2, **NAV},
        "CN-1": {"type": 11, **CN},
        "RN-SN-1": {"type": 0, **NAV, "sourceTaskId": "SN-1"},  # a shipped example: replaced
    }
    return [parse_task({"id": i, **p}, f"{i}.json") for i, p in payloads.items()]


def test_all_variants_expand_as_their_run_task_all() -> None:
    tasks = expand_all(_sources())
    ids = [t.id for t in tasks]
    # 7 plain + PL 1 + DCR 1 + RQ 3 + RN 2 + five conditions x (3 QA + 2 ShortNav)
    assert len(ids) == 7 + 1 + 1 + 3 + 2 + 5 * 5 and ids == sorted(ids) and len(set(ids)) == len(ids)
    dcr = next(t for t in tasks if t.id == "DCR-CN-1")
    assert dcr.type == 12 and dcr.source_task_id == "CN-1" and dcr.kind.closures == "delayed"
    night = next(t for t in tasks if t.id == "NTQ-OQ-1")
    assert night.generated_variant and night.source_task_id == "OQ-1" and night.kind.clock == (23, 30)
    with pytest.raises(ValueError, match="LN"):
        expand_all([t for t in _sources() if t.id != "LN-1"])


@pytest.mark.parametrize(
    ("text", "labels", "deadlines"),
    [
        (
            (
                "At 10 a.m., you've got a hearing at the Court. You meet your husband at Samsung at 12 noon. "
                "At 2:30 p.m. you see the dentist."
            ),
            ["", "", ""],
            ["10:00", "12:00", "14:30"],
        ),
        ("Lunch at 1:30 p.m. at Pier, then the bank by 3 PM.", ["", ""], ["13:30", "15:00"]),
        ("Be at Alpha by 10:00 and at Beta at four o'clock in the afternoon.", ["", ""], ["10:00", "16:00"]),
        (
            "It is now 9:15. In 30 minutes meet Ann at Alpha; 45 minutes later Beta.",
            ["", ""],
            ["09:45", "10:30"],
        ),
        (
            "Dinner at Gamma at 7 p.m., then Delta. Be at Delta by midnight.",
            ["Gamma", "Delta"],
            ["19:00", "00:00"],
        ),
        ("Visit Alpha, then Beta at 11 a.m., then Gamma.", ["Alpha", "Beta", "Gamma"], [None, "11:00", None]),
        ("Visit Alpha, Beta and Gamma.", ["", "", ""], [None, None, None]),
    ],
)
def test_schedule_times_are_read_from_their_words(text: str, labels: list[str], deadlines: list) -> None:
    assert parse_schedule(text, labels).deadlines == deadlines


def test_a_stated_now_and_a_total_deadline() -> None:
    parsed = parse_schedule("It is now 9:00 AM. Run errands at A, B and C within 2 hours.", ["", "", ""])
    assert (
        parsed.now_s == 9 * 3600 and parsed.total_deadline_s == 11 * 3600 and parsed.deadlines == [None] * 3
    )


def _episode(task_payload: dict, states: list[dict], clocks: list[float]) -> UrbanEpisode:
    task = parse_task(task_payload, "t.json")
    episode = UrbanEpisode(client=None, task=task, max_steps=10)  # type: ignore[arg-type]
    episode.positions = [Position(s["lat"], s["lon"], i, c) for i, (s, c) in enumerate(zip(states, clocks))]
    episode.records = [StepRecord(i, {"action": "move"}, "", s) for i, s in enumerate(states[1:], 1)]
    episode.state = states[-1]
    return episode


def test_their_navigation_and_rain_metrics_weight_steps_by_their_duration() -> None:
    start = {"lat": P["lat"], "lon": P["lon"], "on_sidewalk": True, "mode": "first_person"}
    wet = {**start, "lat": 22.31990, "on_sidewalk": False, "being_rained_on": True, "is_raining": True}
    dry = {**start, "lat": 22.31995, "has_overhead_shelter": True, "is_raining": True}
    episode = _episode({"id": "RN-SN-1", "type": 0, **NAV}, [start, wet, dry], [0.0, 3.0, 4.0])
    theirs = their_metrics(episode, {"closure_violated": 0.0})
    assert theirs["sidewalk_time_ratio"] == 0.25 and theirs["rain_exposure_time_ratio"] == 0.75
    assert theirs["sheltered_time_ratio"] == 0.25 and theirs["map_step_count"] == 0
    original = theirs["original_distance_meters"]
    assert 22.0 < original < 22.5 and theirs["remaining_distance_ratio"] == pytest.approx(
        5.56 / original, abs=0.01
    )
    assert theirs["reached_destination"] and theirs["success"]


def test_an_untimed_schedule_has_no_on_time_ratio() -> None:
    payload = {"id": "SF-1", "type": 5, "description": "Visit A then B.", "scheduleStart": P}
    payload["schedule"] = [{"target": Q}, {"target": P}]
    state = {"lat": Q["lat"], "lon": Q["lon"]}
    episode = _episode(payload, [{"lat": P["lat"], "lon": P["lon"]}, state], [0.0, 30.0])
    ours = {
        "stops_reached": 1.0,
        "stop_arrival_ratio": 0.5,
        "completed_in_order": 0.0,
        "order_violations": 0.0,
    }
    theirs = their_metrics(episode, {**ours, "on_time_ratio": 1.0}, [None, None])
    assert theirs["schedule_on_time_ratio"] is None and theirs["schedule_timed_stop_count"] == 0
    assert theirs["schedule_total_deadline"] is None and not theirs["success"]


def test_one_app_serves_one_worker_and_each_worker_holds_its_own_app(tmp_path: Path) -> None:
    from tango.harness.run import RunError
    from tango.urban.runner import UrbanTaskPlugin, claim_app

    plugin = UrbanTaskPlugin()
    assert plugin.max_workers({"sim": {"url": "http://a"}})[0] == 1  # type: ignore[index]
    assert plugin.max_workers({"sim": {"url": "", "urls": ["http://a", "http://b"]}})[0] == 2  # type: ignore[index]
    assert plugin.max_workers({"sim": {"url": ""}}) is None  # the stand-in: one server per worker
    first, held = claim_app(["http://a", "http://b"], tmp_path)
    second, also_held = claim_app(["http://a", "http://b"], tmp_path)
    assert {first, second} == {"http://a", "http://b"}
    with pytest.raises(RunError, match="taken by another worker"):
        claim_app(["http://a", "http://b"], tmp_path)
    held.close()
    assert claim_app(["http://a", "http://b"], tmp_path)[0] == first
    also_held.close()


def test_the_place_judge_takes_only_a_json_boolean_as_found() -> None:
    from tango.urban.judge import _verdict

    assert _verdict('Sure: {"found": true, "reason": "the pharmacy door"}').found
    assert not _verdict('{"found": false, "reason": "a bank"}').found
    for reply in ('{"found": "false", "reason": "x"}', '{"reason": "x"}', "no json"):
        with pytest.raises(ValueError):
            _verdict(reply)
