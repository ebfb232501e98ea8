"""What program generation produced for one instruction: the record the harness stores per episode."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tango.programs.parser import Program


@dataclass
class Attempt:
    """One model call: its raw text and, when the program was rejected or the call failed, why."""

    raw_text: str
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    grammar: bool = False
    temperature: float = 0.0


@dataclass
class GenerationRecord:
    """The program that will run and how it came about.

    `program_source` is what produced the program (llm, hf, template, replay); `generator` the configured
    generator. Tokens and seconds are those spent by this call (0 on a cache hit; the attempts keep the
    original ones; `cpu_seconds` is the process's CPU time during the model calls, `wall_seconds` theirs).
    `program` is None only when generation failed and `failure_reason` says why. `check_failures` are the
    pre-run check's reasons (sent back to the model); `check_passed` is False when the program that runs
    still failed it. `replans` are the revised programs written after failed runs (the first is `program`).
    `warnings` are the parser's notes on what it turned into the language (TANGO's surplus arguments).
    `blocks`: for a program joined from one block per goal (plan-then-fill), each block's own record.
    """

    task: str
    instruction: str
    generator: str
    model: str
    program_source: str
    program: str | None
    raw_text: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    prompt_hash: str = ""
    cached: bool = False
    fallback_reason: str | None = None
    failure_reason: str | None = None
    check_failures: list[str] = field(default_factory=list)
    check_passed: bool = True
    replans: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    parsed: Program | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.program is not None

    @property
    def llm_calls(self) -> int:
        """Model calls of the first program and of every replan."""
        return len(self.attempts) + sum(len(r.get("attempts", [])) for r in self.replans)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (without the parsed AST)."""
        data = asdict(self)
        data.pop("parsed")
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GenerationRecord:
        values = dict(data)
        values["attempts"] = [Attempt(**a) for a in values.get("attempts", [])]
        values.pop("parsed", None)
        return cls(**values)
