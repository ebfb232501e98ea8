"""Closed-loop replanning: when a program ends without reaching its goal by its own evidence and steps remain,
the generator gets the program, a compact summary of what it did and the failure, and writes a revised one.

Evidence is only what the agent itself saw: the program's error, `navigate_to` returning False, a search that
explored everything without finding its target, a question left unanswered. Never success, distances or
ground truth. Every revision is kept in the generation record (`replans`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tango.programs.interpreter import RunResult, StopReason
from tango.programs.values import bounded_text

MIN_STEPS_LEFT = 10
MAX_SUMMARY_LINES = 14
UNANSWERED = {"", "none", "unknown"}

REPLAN_REQUEST = (
    "The robot ran that program and it did not reach the goal: {failure}\n"
    "What happened:\n{summary}\n"
    "Write a revised program for the same question, using what the robot has already seen. "
    "Write only the program.\n"
    "Question: {instruction}\nProgram:\n"
)


@dataclass
class Replan:
    """One revision: why the previous program failed, what it did, and the new generation (or why none)."""

    failure: str
    summary: str
    program: str | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


def run_failure(
    run: RunResult, events: Sequence[dict[str, Any]], stopped: bool, question: bool
) -> str | None:
    """Why the run did not reach its goal by its own evidence, or None when it did (or cannot be told)."""
    if run.error and run.stop_reason != StopReason.STEP_BUDGET:
        return f"the program stopped with an error: {run.error}"
    calls = [e for e in events if e.get("event") == "call"]
    if question:
        value = "" if run.value is None else bounded_text(run.value, 100)[0].strip().lower()
        return "the question was left unanswered" if value in UNANSWERED else None
    navigations = [c for c in calls if c.get("name") == "navigate_to"]
    if navigations and navigations[-1].get("result") == "False":
        return "navigate_to could not reach the target"
    explored_all = any(c.get("name") == "explore_scene" and c.get("result") == "False" for c in calls)
    if not stopped and explored_all:
        return "the robot explored the whole reachable scene without finding its target"
    if not stopped:
        return "the program ended without finding its target (stop() was never called)"
    return None


def trace_summary(events: Sequence[dict[str, Any]], seen: Sequence[str]) -> str:
    """The calls of one run in order (repeated calls folded, as the trace's `repeat` events count them), their
    results, and the objects seen so far."""
    lines: list[str] = []
    last, repeats = "", 0
    for event in events:
        if event.get("event") not in ("call", "repeat"):
            continue
        text = f"{event.get('call')} -> {event.get('result')}"
        times = int(event.get("count", 1))
        if text == last:
            repeats += times
            continue
        if repeats:
            lines.append(f"  (the same {repeats} more times)")
        lines.append(f"  {text}")
        last, repeats = text, times - 1
    if repeats:
        lines.append(f"  (the same {repeats} more times)")
    if len(lines) > MAX_SUMMARY_LINES:
        lines = (
            lines[:4]
            + [f"  ... {len(lines) - MAX_SUMMARY_LINES} more calls ..."]
            + lines[-(MAX_SUMMARY_LINES - 5) :]
        )
    labels = sorted(set(seen))
    lines.append("Objects seen so far: " + (", ".join(labels[:30]) if labels else "none"))
    return "\n".join(lines)


def can_replan(steps_used: int, max_steps: int) -> bool:
    return max_steps - steps_used >= MIN_STEPS_LEFT
