"""The per-episode execution trace (format `tango-trace/2`, docs/traces.md), written as JSONL as it happens.

A trace grows with the steps an episode takes, not with what a program computes: statements are counted per
line (a `profile` event per program: runs, calls, steps and time of each line) and loops per loop line (a
`loop` event: iterations, first and last), never written one by one. Every primitive call is an event, except
that a call repeating the previous call of the same line (same arguments, same result, no step taken) is
folded into a `repeat` event that counts them. The agent adds its pose after every step and, on exploration
steps, the frontier it chose and its score. Every event and the whole file have size caps; what is cut is
marked (`cut` on the event, a final `cut` event counting what was dropped).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tango.trace.values import TraceLimits, bounded, handles_in, summarize

FORMAT = "tango-trace/2"

__all__ = ["FORMAT", "Trace", "TraceLimits", "summarize"]


@dataclass
class _LineStats:
    count: int = 0
    calls: int = 0
    steps: int = 0
    time_s: float = 0.0


@dataclass
class _LoopStats:
    entered: int = 0
    iterations: int = 0
    max_iterations: int = 0
    first: tuple[int, float] = (0, 0.0)
    last: tuple[int, float] = (0, 0.0)


@dataclass
class _Fold:
    call: str
    result: str
    count: int
    first: tuple[int, float]
    last: tuple[int, float]


@dataclass
class _Program:
    """What the trace accumulates while one program runs."""

    lines: dict[int, _LineStats] = field(default_factory=dict)
    loops: dict[int, _LoopStats] = field(default_factory=dict)
    last_call: dict[tuple[int, str], tuple[str, str]] = field(default_factory=dict)
    folds: dict[tuple[int, str], _Fold] = field(default_factory=dict)
    line: int = 0
    since: float = 0.0


class Trace:
    """Collects trace events in memory and, when given a path, appends them to a JSONL file (flushed)."""

    def __init__(self, path: str | Path | None = None, limits: TraceLimits | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.limits = limits or TraceLimits()
        self.events: list[dict[str, Any]] = []
        self.bytes_written = 0
        self.dropped_events = 0
        self.dropped_bytes = 0
        self._file: IO[str] | None = None
        self._started = time.perf_counter()
        self._program = _Program()
        self._poses: list[list[float]] = []
        self._notes: dict[str, Any] = {}
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self.emit("trace", format=FORMAT, limits=self.limits.__dict__)

    def _now(self) -> float:
        return time.perf_counter() - self._started

    def emit(self, event: str, **fields: Any) -> None:
        """Append one event (with `t`, seconds since the trace opened), within the caps."""
        record = {"event": event, "t": round(self._now(), 3), **fields}
        line, cut = bounded(record, self.limits)
        size = len(line.encode("utf-8")) + 1
        if self.bytes_written + size > self.limits.trace_bytes:
            self.dropped_events += 1
            self.dropped_bytes += size
            return
        if cut:
            record["cut"] = sorted(set(cut))
        self.bytes_written += size
        self.events.append(record)
        if self._file is not None:
            self._file.write(line + "\n")
            self._file.flush()

    def of(self, event: str) -> list[dict[str, Any]]:
        """The events of one kind, in order."""
        return [e for e in self.events if e["event"] == event]

    # --- what the interpreter reports ------------------------------------------------------------------------

    def begin_program(self, source: str, toolbox: str) -> None:
        """A program starts: its source; per-line and per-loop counts start afresh."""
        self._flush_poses()
        self._program = _Program(since=time.perf_counter())
        self.emit("program", toolbox=toolbox, source=source)

    def line(self, number: int) -> None:
        """A statement on line `number` starts (counted, and the time since the previous one charged to it)."""
        program, now = self._program, time.perf_counter()
        if program.line:
            program.lines[program.line].time_s += now - program.since
        program.line, program.since = number, now
        program.lines.setdefault(number, _LineStats()).count += 1

    def iteration(self, line: int, count: int, steps: int) -> None:
        """Iteration `count` (1 on entering the loop) of the loop on `line` starts, at `steps` steps."""
        loop = self._program.loops.setdefault(line, _LoopStats())
        mark = (steps, round(self._now(), 3))
        if count == 1:
            loop.entered += 1
        if loop.iterations == 0:
            loop.first = mark
        loop.iterations += 1
        loop.max_iterations = max(loop.max_iterations, count)
        loop.last = mark

    def call(
        self,
        line: int,
        name: str,
        call_text: str,
        arguments: list[Any],
        result: Any,
        steps: int,
        total_steps: int,
        failure: str | None = None,
    ) -> None:
        """A primitive call ended (`failure` names how it raised instead of returning `result`)."""
        program = self._program
        stats = program.lines.setdefault(line, _LineStats())
        stats.calls += 1
        stats.steps += steps
        result_text = f"<{failure}>" if failure else summarize(result, self.limits.text_chars)
        key, signature = (line, name), (call_text, result_text)
        mark = (total_steps, round(self._now(), 3))
        if steps == 0 and not self._poses and not self._notes and program.last_call.get(key) == signature:
            fold = program.folds.get(key)
            if fold is None:
                program.folds[key] = _Fold(call_text, result_text, 1, mark, mark)
            else:
                fold.count += 1
                fold.last = mark
            return
        self._flush_fold(key)
        program.last_call[key] = signature
        fields: dict[str, Any] = {"line": line, "name": name, "call": call_text, "result": result_text}
        fields.update(steps=steps, total_steps=total_steps)
        targets = [h for a in arguments for h in handles_in(a, self.limits.objects)][: self.limits.objects]
        objects = [] if failure else handles_in(result, self.limits.objects)
        if targets:
            fields["targets"] = targets
        if objects:
            fields["objects"] = objects
        fields.update(self._notes)
        if self._poses:
            fields["poses"] = self._poses
        self._poses, self._notes = [], {}
        self.emit("call", **fields)

    def end_program(self, **fields: Any) -> None:
        """The program ended: folded calls, loop and per-line counts, then the `end` event with `fields`."""
        program, now = self._program, time.perf_counter()
        if program.line:
            program.lines[program.line].time_s += now - program.since
            program.line = 0
        for key in list(program.folds):
            self._flush_fold(key)
        for line, loop in sorted(program.loops.items()):
            self.emit(
                "loop", line=line, entered=loop.entered, iterations=loop.iterations,
                max_iterations=loop.max_iterations, first_step=loop.first[0], last_step=loop.last[0],
                t_first=loop.first[1], t_last=loop.last[1],
            )  # fmt: skip
        lines = [
            {"line": n, "count": s.count, "calls": s.calls, "steps": s.steps, "time_s": round(s.time_s, 4)}
            for n, s in sorted(program.lines.items())
        ]
        self.emit("profile", lines=lines)
        if self._poses:
            fields["poses"], self._poses = self._poses, []
        self.emit("end", **fields)

    # --- what the agent reports ------------------------------------------------------------------------------

    def pose(self, entry: list[float]) -> None:
        """The agent's pose after an environment step (`pose_entry`: [x, y, z, yaw, pitch]), attached to the
        primitive call that took the step."""
        self._poses.append(entry)
        if len(self._poses) >= self.limits.list_items:
            self._flush_poses()

    def note(self, **fields: Any) -> None:
        """Fields for the event of the primitive call running now (e.g. the frontier an exploration step chose)."""
        self._notes.update(fields)

    def close(self) -> None:
        """Flush what is pending, mark a cut trace with what was dropped, close the file."""
        self._flush_poses()
        for key in list(self._program.folds):
            self._flush_fold(key)
        if self.dropped_events:
            record = {"event": "cut", "t": round(self._now(), 3), "dropped_events": self.dropped_events,
                      "dropped_bytes": self.dropped_bytes, "trace_bytes": self.limits.trace_bytes}  # fmt: skip
            self.events.append(record)
            if self._file is not None:
                self._file.write(bounded(dict(record), self.limits)[0] + "\n")
            self.dropped_events = 0
        if self._file is not None:
            self._file.close()
            self._file = None

    def _flush_fold(self, key: tuple[int, str]) -> None:
        fold = self._program.folds.pop(key, None)
        if fold is None:
            return
        self.emit(
            "repeat", line=key[0], name=key[1], call=fold.call, result=fold.result, count=fold.count,
            first_step=fold.first[0], last_step=fold.last[0], t_first=fold.first[1], t_last=fold.last[1],
        )  # fmt: skip

    def _flush_poses(self) -> None:
        """Poses taken outside any primitive call (or too many for one event) as a `steps` event."""
        if self._poses:
            poses, self._poses = self._poses, []
            self.emit("steps", poses=poses)
