"""Reading `tango-trace/2` files back (docs/traces.md): the events, split into (sub)tasks and program runs,
for `tango.inspect`, the report and the failure analysis."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROGRAM_ERRORS = frozenset(
    {"runtime_error", "primitive_error", "loop_cap", "call_budget", "statement_budget", "wall_clock"}
)


def read_trace(path: Path) -> list[dict[str, Any]]:
    """The events of a trace file; a line that is not a JSON object (a file cut by a crash) is skipped."""
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


@dataclass
class ProgramRun:
    """One program's run as its trace tells it: source, per-line and per-loop counts, calls, how it ended."""

    source: str
    events: list[dict[str, Any]] = field(default_factory=list)
    profile: dict[int, dict[str, Any]] = field(default_factory=dict)
    loops: dict[int, dict[str, Any]] = field(default_factory=dict)
    end: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @property
    def stop_reason(self) -> str | None:
        return None if self.end is None else self.end.get("stop_reason")


@dataclass
class Segment:
    """The events of one (sub)task: a GOAT subtask from its `subtask` event to the next, else the whole trace;
    `start_pose` is where the agent stood when it began, `program_running` whether it began inside a program
    (one program for a whole GOAT episode)."""

    index: int | None
    events: list[dict[str, Any]]
    start_pose: list[float] | None = None
    header: dict[str, Any] = field(default_factory=dict)
    program_running: bool = False

    @property
    def programs(self) -> list[ProgramRun]:
        return program_runs(self.events)

    @property
    def poses(self) -> list[list[float]]:
        """Every pose of the segment in order, its start pose first."""
        found = [] if self.start_pose is None else [self.start_pose]
        return found + [pose for event in self.events for pose in event.get("poses") or []]

    @property
    def generation_failed(self) -> bool:
        """No program ran in this (sub)task: none started in it and none was running when it began."""
        return not self.program_running and not any(e.get("event") == "program" for e in self.events)


def program_runs(events: list[dict[str, Any]]) -> list[ProgramRun]:
    """The program runs among `events`, each with the events between its `program` and `end` events."""
    runs: list[ProgramRun] = []
    current: ProgramRun | None = None
    for event in events:
        kind = event.get("event")
        if kind == "program":
            current = ProgramRun(str(event.get("source") or ""))
            runs.append(current)
        elif current is None:
            continue
        elif kind == "profile":
            current.profile = {int(row["line"]): row for row in event.get("lines") or []}
        elif kind == "loop":
            current.loops[int(event["line"])] = event
        elif kind == "error":
            current.error = event
        elif kind == "end":
            current.end = event
            current = None
        else:
            current.events.append(event)
    return runs


def segments(events: list[dict[str, Any]]) -> list[Segment]:
    """The trace split at `subtask` events (GOAT); a trace without them is one segment (index None)."""
    found: list[Segment] = []
    current = Segment(None, [])
    last_pose: list[float] | None = None
    running = False
    for event in events:
        kind = event.get("event")
        if kind == "subtask":
            if found or current.events:
                found.append(current)
            current = Segment(int(event.get("index", len(found))), [], last_pose, event, running)
            continue
        running = kind == "program" or (running and kind != "end")
        if event.get("event") == "start" and current.start_pose is None and event.get("poses"):
            current.start_pose = event["poses"][0]
            last_pose = current.start_pose
            continue
        current.events.append(event)
        if event.get("poses"):
            last_pose = event["poses"][-1]
    found.append(current)
    return [s for s in found if s.index is not None] or found
