"""Per-episode limits that no program can exceed: environment steps (shared with the environment),
primitive calls, statements executed, work inside statements, iterations per loop, and wall-clock time."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

MIN_PRIMITIVE_CALLS = 5000
CALLS_PER_STEP = 10
"""Primitive calls allowed per environment step of the step budget: a search loop makes 3-4 a step (explore,
is_found, detect, verify), so a long search runs out of steps, the benchmark's limit, before calls."""


def call_budget_for(max_steps: int) -> int:
    """The primitive-call budget that goes with a step budget: CALLS_PER_STEP a step, at least 5000 (GOAT's
    5000 steps an episode get 50,000 calls; with 5000 a blind GOAT search ran out of calls at ~1,300 steps)."""
    return max(MIN_PRIMITIVE_CALLS, CALLS_PER_STEP * max_steps)


class BudgetExhausted(RuntimeError):
    """A limit was reached; `kind` is the stop reason (step_budget, call_budget, ...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class Budget:
    """Limits and counters of one episode. The agent backend charges every environment action here.

    Steps, calls, statements and work accumulate over the episode (several programs may share one budget, e.g.
    GOAT subtasks); the wall clock restarts whenever a program run starts. Work is what operators and builtins
    touch (list items and characters, tango.programs.operations), charged before they run: the wall clock is
    checked between statements, so only this bounds the time of one statement.
    """

    max_steps: int = 500
    max_primitive_calls: int = MIN_PRIMITIVE_CALLS
    max_loop_iterations: int = 1000
    max_statements: int = 100_000
    max_work: int = 10_000_000
    max_wall_s: float = 600.0
    steps: int = field(default=0, init=False)
    primitive_calls: int = field(default=0, init=False)
    statements: int = field(default=0, init=False)
    work: int = field(default=0, init=False)
    started_at: float = field(default_factory=time.monotonic, init=False)

    def charge_steps(self, count: int = 1) -> None:
        """Count environment actions; raise BudgetExhausted once the step budget is used up."""
        if self.steps + count > self.max_steps:
            self.steps = self.max_steps
            raise BudgetExhausted("step_budget", f"step budget of {self.max_steps} environment steps used up")
        self.steps += count

    def charge_call(self, name: str) -> None:
        self.primitive_calls += 1
        if self.primitive_calls > self.max_primitive_calls:
            raise BudgetExhausted(
                "call_budget",
                f"call budget of {self.max_primitive_calls} primitive calls used up (at {name})",
            )

    def charge_statement(self) -> None:
        """Count one executed statement and check the wall clock."""
        self.statements += 1
        if self.statements > self.max_statements:
            raise BudgetExhausted("statement_budget", f"statement budget of {self.max_statements} used up")
        elapsed = time.monotonic() - self.started_at
        if elapsed > self.max_wall_s:
            raise BudgetExhausted("wall_clock", f"wall-clock limit of {self.max_wall_s:g} s exceeded")

    def charge_work(self, units: int, what: str) -> None:
        """Count the work an operation is about to do; raise BudgetExhausted (before it runs) past the limit."""
        self.work += units
        if self.work > self.max_work:
            raise BudgetExhausted(
                "work_budget",
                f"work budget of {self.max_work:,} units (list items and characters touched) used up: "
                f"{what} needs {units:,}",
            )

    def restart_clock(self) -> None:
        self.started_at = time.monotonic()
