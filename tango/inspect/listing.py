"""Text views of a trace: each program with per-line runs, primitive calls, steps and time, and the events in
order with runs of the same call folded to their first and last (docs/traces.md)."""

from __future__ import annotations

import math
from typing import Any

from tango.trace.reader import ProgramRun, Segment, program_runs, segments

SHOWN_EVENTS = ("call", "repeat", "stop", "steps", "replan", "generation", "error")


def program_listing(run: ProgramRun, number: int, segment: Segment) -> list[str]:
    """One program with a row per source line: runs, calls, steps, seconds, the source, its loop."""
    end = run.end or {}
    later = [int(event.get("index", 0)) for event in run.events if event.get("event") == "subtask"]
    if segment.index is None:
        where = ""
    elif later:  # one program for the whole GOAT episode
        where = f" · subtasks {segment.index}–{later[-1]}"
    else:
        goal = segment.header.get("goal_type")
        where = f" · subtask {segment.index}" + (f" ({goal})" if goal else "")
    total_time = sum(float(row.get("time_s") or 0.0) for row in run.profile.values())
    title = (
        f"program {number}{where} · {end.get('stop_reason', 'did not finish')} · "
        f"{end.get('steps', '?')} steps · {total_time:.2f} s"
    )
    rows = [title, f"  {'line':>4} {'runs':>6} {'calls':>6} {'steps':>6} {'time s':>7}  source"]
    for number_, source in enumerate(run.source.splitlines(), start=1):
        row = run.profile.get(number_, {})
        loop = run.loops.get(number_)
        note = ""
        if loop:
            note = (
                f"    ↻ {loop['iterations']} iterations in {loop['entered']} runs"
                f" (steps {loop['first_step']}–{loop['last_step']})"
            )
        rows.append(
            f"  {number_:>4} {row.get('count', 0):>6} {row.get('calls', 0):>6} {row.get('steps', 0):>6}"
            f" {float(row.get('time_s') or 0.0):>7.2f}  {source}{note}"
        )
    if run.error:
        rows.append(f"  error: {run.error.get('message')}")
    return rows


def _xz(pose: list[float]) -> str:
    return f"({pose[0]:.2f}, {pose[2]:.2f}) {math.degrees(pose[3]):.0f}°"


def event_line(event: dict[str, Any]) -> str:
    """One event as a line of text."""
    kind = event.get("event")
    poses = event.get("poses") or []
    at = f" at {_xz(poses[-1])}" if poses else ""
    if kind == "call":
        line = f"step {event.get('total_steps', '?'):>4}  L{event.get('line')}  {event.get('call')} -> "
        line += f"{event.get('result')}{at}"
        if event.get("frontier"):
            line += f" → frontier {tuple(event['frontier'])} {event.get('score_kind')} {event.get('frontier_score')}"
        if event.get("scan"):
            line += " (scan)"
        return line
    if kind == "repeat":
        return (
            f"steps {event.get('first_step')}–{event.get('last_step')}  L{event.get('line')}  {event.get('call')}"
            f" -> {event.get('result')}  repeated {event.get('count')} more times"
        )
    if kind == "stop":
        return f"STOP #{event.get('number')}{at}"
    if kind == "steps":
        return f"{len(poses)} steps outside a primitive call{at}"
    if kind == "generation":
        return f"program asked for: {event.get('instruction')}" + (
            f" (errors: {event['errors']})" if event.get("errors") else ""
        )
    if kind == "error":
        return f"ERROR line {event.get('line')}: {event.get('message')}"
    return f"{kind}: {event.get('failure') or ''}"


def folded_events(events: list[dict[str, Any]]) -> list[str]:
    """The events worth reading, in order; a run of calls of the same line and primitive shows its first
    and last call with the count between."""
    shown = [e for e in events if e.get("event") in SHOWN_EVENTS]
    lines: list[str] = []
    index = 0
    while index < len(shown):
        event = shown[index]
        key = (event.get("event"), event.get("line"), event.get("name"))
        end = index
        while event.get("event") == "call" and end + 1 < len(shown):
            following = shown[end + 1]
            if (following.get("event"), following.get("line"), following.get("name")) != key:
                break
            end += 1
        lines.append(event_line(event))
        if end - index >= 2:
            first, last = shown[index + 1], shown[end - 1]
            lines.append(
                f"   … {end - index - 1} more {event.get('name')} calls on line {event.get('line')}"
                f" (steps {first.get('total_steps')}–{last.get('total_steps')}) …"
            )
        if end > index:
            lines.append(event_line(shown[end]))
        index = end + 1
    return lines


def segment_view(segment: Segment, runs: list[ProgramRun], full: bool) -> list[str]:
    """A (sub)task: its header, the per-line listing of the programs that started in it (`runs`, read over the
    whole trace so that a program spanning subtasks is counted whole), then its events (folded unless `full`)."""
    lines: list[str] = []
    if segment.index is not None:
        header = segment.header
        lines.append(f"── subtask {segment.index} ({header.get('goal_type')}): {header.get('instruction')}")
    if segment.start_pose:
        lines.append(f"starts at {_xz(segment.start_pose)}")
    if segment.program_running and not runs:
        lines.append("(the program that started in an earlier subtask is still running)")
    for number, run in enumerate(runs, start=1):
        lines += program_listing(run, number, segment)
    events = [e for e in segment.events if e.get("event") in SHOWN_EVENTS]
    lines.append("events:" if full else "events (runs of one call folded; --full shows each):")
    lines += ["  " + line for line in (map(event_line, events) if full else folded_events(segment.events))]
    return lines


def trace_view(events: list[dict[str, Any]], full: bool) -> list[str]:
    """Every (sub)task of a trace with its programs and events."""
    runs = program_runs(events)
    parts = segments(events)
    lines: list[str] = []
    for segment in parts:
        started = sum(1 for event in segment.events if event.get("event") == "program")
        mine, runs = runs[:started], runs[started:]
        lines += segment_view(segment, mine, full)
    return lines
