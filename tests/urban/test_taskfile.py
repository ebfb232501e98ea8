"""Task files of UrbanGround's own shape (their harness's field names and placeholders): every kind reads,
type 12 is routed by id prefix, and a malformed file fails with its file and field named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tango.urban.kinds import kind_of
from tango.urban.taskfile import TaskFileError, load_task_file

P = {"lat": 22.3198, "lon": 114.1694, "height": 12.5, "yaw": 135.0, "label": "Nathan Road"}
ZERO = {"lat": 0.0, "lon": 0.0, "height": 0.0, "yaw": 0.0, "label": ""}
OPTIONS = [{"text": t} for t in ("A bank", "A bakery", "A cinema", "A school")]
CASES = {
    "LQ-20260713-151300": {
        "type": 7,
        "description": "Which shop is here?",
        "qaStartPoint": P,
        "qaOptions": OPTIONS,
        "qaAnswerIndex": 2,
        "startPoint": ZERO,
        "endPoint": ZERO,
    },
    "SN-1": {"type": 0, "description": "", "startPoint": P, "endPoint": {**P, "lat": 22.3201}},
    "IN-1": {"type": 10, "description": "go straight and turn left", "startPoint": P, "endPoint": P},
    "CN-1": {
        "type": 11,
        "description": "avoid",
        "startPoint": P,
        "endPoint": P,
        "closureDelayMinutes": 3,
        "restrictedZones": [{"label": "works", "vertices": [P, {**P, "lon": 114.1696}]}],
    },
    "CN-2": {
        "type": 12,
        "description": "later",
        "startPoint": P,
        "endPoint": P,
        "restrictedZones": [{"label": "works", "vertices": [P, {**P, "lon": 114.1696}]}],
    },
    "II-1": {
        "type": 12,
        "description": "Go deposit some money",
        "exploreStart": P,
        "endPoint": P,
        "startPoint": ZERO,
        "poiCategory": "bank",
        "exploreDurationMinutes": 10,
    },
    "SF-1": {
        "type": 5,
        "description": "At 10 a.m. ...",
        "scheduleStart": P,
        "startPoint": ZERO,
        "endPoint": ZERO,
        "schedule": [{"target": P}, {"target": {**P, "lat": 22.32}}],
    },
    "MP-1": {
        "type": 13,
        "description": "visit three",
        "multiRouteStart": P,
        "startPoint": ZERO,
        "endPoint": ZERO,
        "multiRouteTargets": [{"kind": "poi", "point": P, "poiCategory": "park", "note": "Sports Ground"}],
    },
    "PS-1": {
        "type": 3,
        "description": "Find the nearest public toilet.",
        "searchOrigin": P,
        "endPoint": ZERO,
        "poiCategory": "toilet",
    },
}


def write(tmp_path: Path, task_id: str, payload: object) -> Path:
    path = tmp_path / f"{task_id}.json"
    path.write_text(json.dumps(payload))
    return path


@pytest.mark.parametrize("task_id", sorted(CASES))
def test_every_kind_of_their_harness_reads_from_its_own_fields(tmp_path: Path, task_id: str) -> None:
    task = load_task_file(write(tmp_path, task_id, {"id": task_id, **CASES[task_id]}))
    assert task.start.lat == 22.3198 and task.start.label == "Nathan Road"
    family = task.kind.family
    assert (task.qa_answer_index == 2 and task.answer_letter == "C") if family == "qa" else True
    assert (len(task.schedule) == 2) if family == "schedule" else True
    assert (task.targets[0].note == "Sports Ground") if family == "multipoint" else True
    assert (task.zones[0].vertices[1] == (22.3198, 114.1696)) if task.kind.closures != "none" else True


def test_type_12_is_dynamic_closure_for_cn_ids_and_implicit_intent_for_ii_ids() -> None:
    assert kind_of("CN-2", 12).name == "DynamicClosureNav"
    assert kind_of("DCR-CN-2", 12).name == "DynamicClosureNav"
    assert kind_of("II-1", 12).name == "ImplicitIntentNav"
    assert kind_of("RN-SN-1", 0).name == "RainShortNav" and kind_of("SN-1", 0).name == "ShortNav"


def test_a_wrapped_payload_reads_like_a_bare_one(tmp_path: Path) -> None:
    task = load_task_file(write(tmp_path, "w", {"task": {"id": "SN-9", **CASES["SN-1"]}}))
    assert task.id == "SN-9" and task.end is not None and task.end.lat == 22.3201


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"id": "SN-1", "type": 0, "startPoint": P}, "missing field 'endPoint'"),
        ({"id": "II-1", **CASES["II-1"], "exploreStart": ZERO}, "field 'exploreStart': is the editor's 0,0"),
        ({"id": "LQ-1", **CASES["LQ-20260713-151300"], "qaAnswerIndex": 4}, "field 'qaAnswerIndex'"),
        ({"id": "LQ-1", **CASES["LQ-20260713-151300"], "qaOptions": OPTIONS[:3]}, "four options, got 3"),
        ({"id": "SN-1", **CASES["SN-1"], "endPoint": {"lat": "north", "lon": 1}}, "field 'endPoint.lat'"),
        ({"id": "CN-1", **CASES["CN-1"], "restrictedZones": [{"vertices": [P]}]}, "at least two vertices"),
        ({"id": "SN-1", **CASES["SN-1"], "type": "zero"}, "field 'type'"),
        ({"id": "SF-1", **CASES["SF-1"], "schedule": []}, "at least one stop"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_a_malformed_file_names_the_file_and_the_field(tmp_path: Path, payload: object, message: str) -> None:
    path = write(tmp_path, "bad", payload)
    with pytest.raises(TaskFileError, match=message) as caught:
        load_task_file(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_file_that_is_not_json_says_where(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"id": "SN-1", "type": 0,\n')
    with pytest.raises(TaskFileError, match=r"broken.json: not JSON \(line 2"):
        load_task_file(path)
