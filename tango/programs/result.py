"""What a program run returns: its value and why it ended (its own end, or the limit or error that stopped it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class StopReason:
    """Why a run ended: the program's own end, or the limit or error that stopped it."""

    RETURNED = "returned"
    COMPLETED = "completed"
    STEP_BUDGET = "step_budget"
    CALL_BUDGET = "call_budget"
    STATEMENT_BUDGET = "statement_budget"
    WORK_BUDGET = "work_budget"
    WALL_CLOCK = "wall_clock"
    LOOP_CAP = "loop_cap"
    RUNTIME_ERROR = "runtime_error"
    PRIMITIVE_ERROR = "primitive_error"


@dataclass
class RunResult:
    """What a run returned and why it ended; `error` is 'line N: reason' when it did not end cleanly.

    `ok` is True only for a program that ended by itself (returned or ran to its end): a task treats only
    such a program as having chosen where to end (see docs/programs.md, "Programs that end without stop()").
    """

    value: Any
    stop_reason: str
    steps: int
    primitive_calls: int
    error: str | None = None
    error_line: int | None = None
    trace_path: str | None = None
    called: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None
