"""The TANGO program agent on city tasks: a program written for the instruction (template, or any configured
LLM generator through the same interface), run by tango's interpreter over the urban toolbox."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.urban.agents.templates import TemplateError, template_program
from tango.urban.episode import UrbanEpisode

log = logging.getLogger(__name__)
TOOLBOX = "urban"


@dataclass
class AgentOutcome:
    """What an agent reports after an episode: the program that ran (if any), LLM usage, extras."""

    program: str = ""
    program_source: str = ""
    generation: dict[str, Any] | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class ProgramAgent:
    """Writes (or reuses) a program per instruction and runs it; `signs` picks the sign reader."""

    def __init__(self, generator: dict[str, Any] | None = None, signs: str = "ocr") -> None:
        self.generator_config = dict(generator or {"name": "template"})
        self.signs = signs
        self._generator: Any = None

    def program_for(self, episode: UrbanEpisode) -> tuple[str, str, dict[str, Any] | None]:
        kind, instruction = episode.task.kind, episode.instruction
        if self.generator_config.get("name", "template") == "template":
            return template_program(kind, instruction), "template", None
        from tango.programs.generators import GeneratorConfig, make_generator

        if self._generator is None:
            self._generator = make_generator(GeneratorConfig.from_mapping(self.generator_config))
        record = self._generator.generate(TOOLBOX, instruction)
        if record.program is not None:
            return record.program, record.program_source, record.to_dict()
        log.info("generator gave no urban program (%s); using the template", record.failure_reason)
        return template_program(kind, instruction), "template", record.to_dict()

    def run(self, episode: UrbanEpisode, trace_path: Path | None = None) -> AgentOutcome:
        import tango.urban.agents.toolbox  # noqa: F401  (registers the urban primitives)
        from tango.primitives.context import AgentContext
        from tango.programs import Interpreter, parse
        from tango.trace.budget import Budget
        from tango.trace.writer import Trace
        from tango.urban.agents.backend import UrbanBackend

        try:
            text, source, record = self.program_for(episode)
        except TemplateError as error:
            return AgentOutcome(program_source="none", extra={"program_error": str(error)})
        program = parse(text, toolbox=TOOLBOX)
        budget = Budget(max_steps=episode.max_steps, max_primitive_calls=2000, max_wall_s=1800.0)
        trace = Trace(trace_path)
        backend = UrbanBackend(episode, budget, self.signs)
        inputs = {"options": list(episode.task.qa_options), "letters": ["A", "B", "C", "D"]}
        ctx = AgentContext(agent=backend, budget=budget, trace=trace, inputs=inputs)
        try:
            result = Interpreter(TOOLBOX).run(program, ctx)
        finally:
            trace.close()
        return AgentOutcome(
            program=program.source,
            program_source=source,
            generation=record,
            extra={
                "stop_reason": result.stop_reason,
                "program_error": result.error,
                "replans": backend.replans,
                "map_views": len(backend.city.readings),
            },
        )
