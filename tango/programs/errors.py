"""Errors of the program language: rejected programs (ProgramError) and failures while running them."""

from __future__ import annotations


class ProgramError(ValueError):
    """A program outside the language: `line` (1-based, None when unknown) and the `reason`."""

    def __init__(self, line: int | None, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


class ProgramRuntimeError(RuntimeError):
    """A valid program that failed while running (bad value, wrong type, primitive error) at `line`."""

    def __init__(self, line: int | None, reason: str, kind: str = "runtime_error") -> None:
        self.line = line
        self.reason = reason
        self.kind = kind
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
