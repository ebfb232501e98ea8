"""The interface every program generator implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from tango.programs.generators.record import GenerationRecord


class ProgramGenerator(ABC):
    """Turns a task's instruction into a GenerationRecord holding a validated program (or the reason why not)."""

    name: str = ""
    model: str = ""
    max_replans: int = 0

    @abstractmethod
    def generate(self, task: str, instruction: str) -> GenerationRecord:
        """A record for `instruction`; never raises for a bad model reply, the record says what happened."""

    def replan(
        self, task: str, record: GenerationRecord, program: str, failure: str, summary: str
    ) -> GenerationRecord:
        """A revised program after a failed run; generators that cannot revise return a record without one."""
        revised = GenerationRecord(
            task, record.instruction, self.name, self.model, record.program_source, None
        )
        revised.failure_reason = f"the {self.name} generator does not replan"
        return revised
