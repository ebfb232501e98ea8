"""The interface every program generator implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from tango.programs.generators.record import GenerationRecord


class ProgramGenerator(ABC):
    """Turns a task's instruction into a GenerationRecord holding a validated program (or the reason why not)."""

    name: str = ""
    model: str = ""

    @abstractmethod
    def generate(self, task: str, instruction: str) -> GenerationRecord:
        """A record for `instruction`; never raises for a bad model reply, the record says what happened."""
