"""The trace format (docs/traces.md): statements counted per line, loops folded, repeated calls folded, handles
in full with their coordinates, and caps on every event and on the whole file with the cut marked."""

from __future__ import annotations

import json
from pathlib import Path

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, Trace, parse
from tango.trace.writer import FORMAT, TraceLimits
from tests.programs.fake_world import apartment


def run_traced(source: str, path: Path, limits: TraceLimits | None = None) -> list[dict]:
    budget = Budget(max_statements=1_000_000)
    trace = Trace(path, limits)
    Interpreter().run(parse(source), AgentContext(agent=apartment(budget), budget=budget, trace=trace))
    trace.close()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def nested_loop_assigning(outer: int, text_chars: int) -> str:
    literal = "y" * text_chars
    return f"for i in range({outer}):\n    for j in range(99):\n        s = '{literal}'\nreturn len(s)\n"


def test_a_loop_that_assigns_a_long_string_writes_a_trace_that_does_not_grow_with_its_iterations(
    tmp_path: Path,
) -> None:
    """Issue 12 measured a 1000 x 99 loop assigning a 19,500-character string writing a 1.9 GB trace (one line
    event per statement with its source). Here 5 x 99 and 200 x 99 iterations write the same few events."""
    small = run_traced(nested_loop_assigning(5, 1950), tmp_path / "small.jsonl")
    large = run_traced(nested_loop_assigning(200, 1950), tmp_path / "large.jsonl")
    small_bytes = (tmp_path / "small.jsonl").stat().st_size
    large_bytes = (tmp_path / "large.jsonl").stat().st_size
    assert [e["event"] for e in small] == [e["event"] for e in large]
    assert abs(large_bytes - small_bytes) < 200 and large_bytes < 8_000
    loops = {e["line"]: e for e in large if e["event"] == "loop"}
    assert loops[1]["iterations"] == 200 and loops[1]["entered"] == 1
    assert (
        loops[2]["iterations"] == 200 * 99 and loops[2]["entered"] == 200 and loops[2]["max_iterations"] == 99
    )
    profile = {row["line"]: row for row in next(e for e in large if e["event"] == "profile")["lines"]}
    assert profile[3]["count"] == 200 * 99 and profile[4]["count"] == 1
    assert all(row["time_s"] >= 0 for row in profile.values())


def test_repeated_calls_of_a_line_fold_into_one_repeat_event_and_steps_are_kept(tmp_path: Path) -> None:
    events = run_traced(
        "for i in range(30):\n    x = detect('piano')\nexplore_scene()\nexplore_scene()\n",
        tmp_path / "t.jsonl",
    )
    calls = [e for e in events if e["event"] == "call"]
    assert [c["name"] for c in calls] == ["detect", "explore_scene", "explore_scene"]
    repeat = next(e for e in events if e["event"] == "repeat")
    assert repeat["line"] == 2 and repeat["count"] == 29 and repeat["result"] == "[]"
    assert repeat["call"] == "detect('piano')"
    assert events[0] == {**events[0], "event": "trace", "format": FORMAT}


def test_handles_appear_whole_with_coordinates_and_as_structured_objects(tmp_path: Path) -> None:
    events = run_traced(
        "while explore_scene():\n    bed = detect('bed')\n    if is_found(bed):\n        navigate_to(bed)\n"
        "        stop()\n",
        tmp_path / "t.jsonl",
    )
    found = next(e for e in events if e["event"] == "call" and e["name"] == "detect" and e["result"] != "[]")
    assert "bed@(16.00, 0.00, 0.00) score=0.90" in found["result"]
    assert found["objects"] == [{"label": "bed", "position": [16.0, 0.0, 0.0], "score": 0.9}]
    navigate = next(e for e in events if e["event"] == "call" and e["name"] == "navigate_to")
    assert navigate["targets"][0]["position"] == [16.0, 0.0, 0.0]
    assert "bed@(16.00, 0.00, 0.00)" in navigate["call"]


def test_an_event_over_its_caps_is_cut_and_marked(tmp_path: Path) -> None:
    limits = TraceLimits(text_chars=40)
    events = run_traced("x = detect('" + "a" * 300 + "')\n", tmp_path / "t.jsonl", limits)
    call = next(e for e in events if e["event"] == "call")
    assert call["cut"] == ["call"] and call["call"].endswith("…[cut 270 chars]")
    assert len(call["call"]) < 60


def test_a_trace_over_its_file_cap_stops_writing_and_says_how_much_it_dropped(tmp_path: Path) -> None:
    limits = TraceLimits(trace_bytes=3_000)
    path = tmp_path / "t.jsonl"
    events = run_traced("while explore_scene():\n    x = detect('piano')\n", path, limits)
    last = events[-1]
    assert last["event"] == "cut" and last["dropped_events"] > 0 and last["dropped_bytes"] > 0
    body = path.read_text(encoding="utf-8").splitlines()[:-1]
    assert sum(len(line.encode()) + 1 for line in body) <= 3_000
