"""Program generation by a language model with a repair loop, an on-disk cache and a configured fallback.

Each invalid reply is sent back with the parser's error (or, with a ProgramCheck, the reason the program does
not fit its instruction) and the model is asked again, up to `max_attempts`; an invalid program then falls back
to the template program or fails with the reason, while a valid one that still fails the check runs as the
model wrote it (the record says so), unless it is a search that can run only once: then the check's own
correction (the loop's unconditional stop() moved after it) runs, with a warning. `replan` asks for a revised program after a failed run.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any, Protocol

from tango.llm import ChatResponse, LLMError
from tango.programs.errors import ProgramError
from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.cache import ProgramCache, cache_key
from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.goal_blocks import goal_parts, joined_program, split_goals
from tango.programs.generators.program_check import ProgramCheck, settled_search
from tango.programs.generators.record import Attempt, GenerationRecord
from tango.programs.generators.replan import REPLAN_REQUEST
from tango.programs.generators.template import TemplateGenerator
from tango.programs.grammar import program_grammar
from tango.programs.parser import Program, parse
from tango.programs.prompt import Prompt, nearest_examples, prompt_for_task

logger = logging.getLogger(__name__)

MIN_REPLY_TOKENS = 96
"""The smallest reply budget per goal, in tokens (a one-goal search is ~25 tokens)."""
CHARACTERS_PER_BUDGET_TOKEN = 2
"""Program text runs ~3.5 characters a token: half the characters of the longest example per goal gives a
reply of the examples' kind room for ~1.75 times their length and no more, so a reply that would repeat a
block ends within seconds instead of running to the configured limit."""

REPAIR_REQUEST = (
    "That program is not valid: {error}\n"
    "Write the corrected program only, using only the functions listed and the same language rules.\n"
    "Program:\n"
)
SETTLED_WARNING = (
    "the check moved the search loop's unconditional stop() after the loop (the replies kept it)"
)
CHECK_REQUEST = (
    "That program does not fit the question: {error}\n"
    "Write the corrected program only.\n"
    "Question: {instruction}\nProgram:\n"
)


class ChatBackend(Protocol):
    """Anything that answers chat messages (the OpenAI-compatible client, a local transformers model).

    One with `accepts_options = True` takes `temperature=` (repairs sample) and `shared_prefix=` (how many
    leading messages every request shares) keywords, one with
    `accepts_grammar = True` a `grammar=` keyword (GBNF text the reply must follow)."""

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse: ...


class LLMProgramGenerator(ProgramGenerator):
    """Asks `backend` for a program, repairs invalid ones, caches valid ones, falls back per config."""

    def __init__(
        self,
        name: str,
        model: str,
        backend: ChatBackend,
        program_source: str,
        max_attempts: int = 3,
        fallback: str = "template",
        cache: ProgramCache | None = None,
        prompts_dir: str | Path | None = None,
        check: ProgramCheck | None = None,
        max_replans: int = 0,
        grammar: bool = False,
        repair_temperature: float = 0.0,
        examples: int = 0,
        replan_attempts: int = 1,
        goal_blocks: bool = False,
    ) -> None:
        self.name = name
        self.model = model
        self.backend = backend
        self.program_source = program_source
        self.max_attempts = max_attempts
        self.fallback = fallback
        self.cache = cache
        self.prompts_dir = prompts_dir
        self.check = check
        self.max_replans = max_replans
        self.grammar = grammar and bool(getattr(backend, "accepts_grammar", False))
        self.repair_temperature = repair_temperature
        self.examples = examples
        self.replan_attempts = replan_attempts
        self.goal_blocks = goal_blocks
        self._ranker = check or ProgramCheck()  # its text-similarity model ranks the examples
        self._prompts: dict[str, Prompt] = {}
        self._grammars: dict[str, str] = {}

    def prompt(self, task: str, instruction: str | None = None) -> Prompt:
        """The task's prompt; with `examples` > 0 and an instruction, with the examples nearest to it."""
        if task not in self._prompts:
            self._prompts[task] = prompt_for_task(task, self.prompts_dir)
        prompt = self._prompts[task]
        if self.examples and instruction is not None:
            chosen = nearest_examples(prompt.examples, instruction, self.examples, self._ranker.similarity)
            prompt = prompt.with_examples(chosen)
        return prompt

    def settings(self, prompt: Prompt) -> str:
        """What besides the prompt decides the reply, for the program cache's key: the grammar (its text's
        hash), the check, repairs and the backend's sampling settings. A cache filled under other settings
        (no grammar, another seed) then misses instead of standing in for this configuration's programs."""
        grammar = "off"
        if self.grammar:
            grammar = hashlib.sha256(self._grammar(prompt).encode()).hexdigest()[:12]
        backend = getattr(self.backend, "config", None)
        sampling = [
            f"{name}={getattr(backend, name)}"
            for name in ("temperature", "seed", "max_tokens")
            if hasattr(backend, name)
        ]
        fixed = [f"grammar={grammar}", f"check={self.check is not None}", f"attempts={self.max_attempts}"]
        return ";".join([*fixed, f"repair={self.repair_temperature}", *sampling])

    def _grammar(self, prompt: Prompt) -> str:
        """The program grammar of the prompt's toolbox with the primitives its task offers (one per task)."""
        key = f"{prompt.toolbox}/{prompt.task}"
        if key not in self._grammars:
            self._grammars[key] = program_grammar(prompt.toolbox, task=prompt.task or None)
        return self._grammars[key]

    def reply_budget(self, prompt: Prompt, instruction: str) -> int:
        """The most tokens a reply to `instruction` may take: per goal, half the characters of the prompt's
        longest example program per goal it reaches (at least MIN_REPLY_TOKENS), times the instruction's
        goals."""
        per_goal = max(
            len(example.program) // len(split_goals(example.question)) for example in prompt.examples
        )
        per_goal = max(MIN_REPLY_TOKENS, per_goal // CHARACTERS_PER_BUDGET_TOKEN)
        return per_goal * len(split_goals(instruction))

    def generate(self, task: str, instruction: str) -> GenerationRecord:
        parts = goal_parts(instruction) if self.goal_blocks else []
        if len(parts) > 1:
            return self._fill(task, instruction, parts)
        prompt = self.prompt(task, instruction)
        key = cache_key(self.name, self.model, f"{prompt.digest}|{self.settings(prompt)}", instruction)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            cached.task, cached.cached = task, True
            cached.prompt_tokens = cached.completion_tokens = 0
            cached.cpu_seconds = cached.wall_seconds = 0.0
            if cached.program is None:
                return self._fall_back(cached)
            try:
                cached.parsed = parse(cached.program, toolbox=prompt.toolbox)
            except ProgramError as error:
                logger.warning("cached program no longer parses (%s); generating again", error)
            else:
                return cached
        record = GenerationRecord(task, instruction, self.name, self.model, self.program_source, None)
        record.prompt_hash = prompt.digest
        self._ask(prompt, record)
        answered = all(not a.error or not a.error.startswith("model call failed") for a in record.attempts)
        if self.cache is not None and (record.program is not None or answered):
            self.cache.put(key, record)  # a failed generation too: a rerun falls back without asking again
        if record.program is not None:
            return record
        return self._fall_back(record)

    def _fill(self, task: str, instruction: str, parts: list[Any]) -> GenerationRecord:
        """Plan-then-fill (tango.programs.generators.goal_blocks): each goal's block from the goal's own
        instruction (generated, checked and cached as a one-goal program), joined in order into one program.
        The record sums the blocks' calls, tokens and seconds; `blocks` keeps each block's record."""
        record = GenerationRecord(task, instruction, self.name, self.model, self.program_source, None)
        record.prompt_hash = self.prompt(task).digest
        blocks = [self.generate(task, part.instruction) for part in parts]
        for block in blocks:
            record.attempts.extend([] if block.cached else block.attempts)
            record.prompt_tokens += block.prompt_tokens
            record.completion_tokens += block.completion_tokens
            record.cpu_seconds = round(record.cpu_seconds + block.cpu_seconds, 3)
            record.wall_seconds = round(record.wall_seconds + block.wall_seconds, 3)
            record.check_failures.extend(block.check_failures)
            record.check_passed = record.check_passed and block.check_passed
            record.warnings.extend(block.warnings)
        record.blocks = [block.to_dict() for block in blocks]
        record.cached = all(block.cached for block in blocks)
        fallbacks = [f"goal {n}: {b.fallback_reason}" for n, b in enumerate(blocks, 1) if b.fallback_reason]
        record.fallback_reason = "; ".join(fallbacks) or None
        missing = [n for n, block in enumerate(blocks, 1) if block.parsed is None]
        if missing:
            record.failure_reason = f"no program for goal(s) {', '.join(map(str, missing))}"
            return record
        text = joined_program(
            [b.parsed for b in blocks if b.parsed is not None], parts, self.prompt(task).toolbox
        )
        record.raw_text = text
        try:
            record.parsed = parse(text, toolbox=self.prompt(task).toolbox)
        except ProgramError as error:  # the joining is ours: a bug to report, not a model's mistake
            record.failure_reason = f"the joined goal blocks do not parse: {error}"
            return record
        record.program = record.parsed.source
        return record

    def _complete(self, prompt: Prompt, messages: list[dict[str, Any]], attempt: int) -> tuple[Attempt, str]:
        """One model call: under the program grammar when the backend can, sampled when it is a repair, and
        held to the reply budget of the instruction (the last user turn's question)."""
        options: dict[str, Any] = {}
        if getattr(self.backend, "accepts_options", False):
            options["shared_prefix"] = 1 + 2 * len(prompt.examples)  # the system text and the example turns
            options["max_tokens"] = self.reply_budget(prompt, self._question(messages))
            if attempt > 0:
                options["temperature"] = self.repair_temperature
        if self.grammar:
            options["grammar"] = self._grammar(prompt)
        response = self.backend.complete(messages, **options)
        return (
            Attempt(
                response.text,
                None,
                response.prompt_tokens,
                response.completion_tokens,
                round(response.cpu_seconds, 3),
                round(response.wall_seconds, 3),
                "grammar" in options,
                float(options.get("temperature", 0.0)),
            ),
            response.text,
        )

    @staticmethod
    def _question(messages: list[dict[str, Any]]) -> str:
        """The question of the last user turn that asks one (a repair or replan repeats it, or the first)."""
        for message in reversed(messages):
            content = str(message.get("content", ""))
            if message.get("role") == "user" and "Question:" in content:
                return content.rsplit("Question:", 1)[1].split("\nProgram:", 1)[0].strip()
        return ""

    def _ask(
        self,
        prompt: Prompt,
        record: GenerationRecord,
        messages: list[dict[str, Any]] | None = None,
        attempts: int | None = None,
    ) -> None:
        messages = messages or prompt.messages(record.instruction)
        unchecked: Program | None = None
        for number in range(attempts or self.max_attempts):
            try:
                attempt, text = self._complete(prompt, messages, number)
            except LLMError as error:
                record.attempts.append(Attempt("", f"model call failed: {error}"))
                record.errors.append(f"model call failed: {error}")
                return
            record.attempts.append(attempt)
            record.raw_text = text
            record.prompt_tokens += attempt.prompt_tokens
            record.completion_tokens += attempt.completion_tokens
            record.cpu_seconds = round(record.cpu_seconds + attempt.cpu_seconds, 3)
            record.wall_seconds = round(record.wall_seconds + attempt.wall_seconds, 3)
            try:
                program = parse(text, toolbox=prompt.toolbox)
            except ProgramError as error:
                attempt.error = str(error)
                record.errors.append(str(error))
                messages = [
                    *messages,
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": REPAIR_REQUEST.format(error=error)},
                ]
                continue
            problem = self.check.problem(record.task, record.instruction, program) if self.check else None
            if problem is None:
                record.program, record.parsed = program.source, program
                record.warnings = list(program.warnings)
                return
            attempt.error = f"check: {problem}"
            record.check_failures.append(problem)
            unchecked = program
            messages = [
                *messages,
                {"role": "assistant", "content": text},
                {
                    "role": "user",
                    "content": CHECK_REQUEST.format(error=problem, instruction=record.instruction),
                },
            ]
        if unchecked is not None and record.program is None:
            settled = settled_search(unchecked) if self.check is not None else None
            if (
                settled is not None
                and self.check is not None
                and self.check.problem(record.task, record.instruction, settled) is None
            ):
                record.program, record.parsed = settled.source, settled
                record.warnings = [*settled.warnings, SETTLED_WARNING]
                return
            record.program, record.parsed = unchecked.source, unchecked
            record.warnings = list(unchecked.warnings)
            record.check_passed = False

    def replan(
        self, task: str, record: GenerationRecord, program: str, failure: str, summary: str
    ) -> GenerationRecord:
        """A revised program after `program` ran and failed (`failure`, `summary` of its trace); the returned
        record has no program when the model gave no valid one."""
        prompt = self.prompt(task, record.instruction)
        revised = GenerationRecord(task, record.instruction, self.name, self.model, self.program_source, None)
        revised.prompt_hash = prompt.digest
        request = REPLAN_REQUEST.format(failure=failure, summary=summary, instruction=record.instruction)
        messages = [
            *prompt.messages(record.instruction),
            {"role": "assistant", "content": program},
            {"role": "user", "content": request},
        ]
        self._ask(prompt, revised, messages, self.replan_attempts)
        return revised

    def _fall_back(self, record: GenerationRecord) -> GenerationRecord:
        last = record.errors[-1] if record.errors else "no reply"
        reason = f"{self.name} gave no valid program in {len(record.attempts)} attempt(s); last error: {last}"
        if self.fallback != "template":
            record.failure_reason = reason
            return record
        template = TemplateGenerator().generate(record.task, record.instruction)
        record.program, record.parsed = template.program, template.parsed
        record.program_source = "template"
        record.fallback_reason = reason
        record.failure_reason = template.failure_reason
        logger.info("falling back to the template program: %s", reason)
        return record


def configured_generator(
    config: GeneratorConfig, model: str, backend: ChatBackend, cache: ProgramCache | None, source: str = "llm"
) -> LLMProgramGenerator:
    """The generator `config.name` over `backend` with the configured repair, fallback, cache, check and replans."""
    return LLMProgramGenerator(
        config.name,
        model,
        backend,
        program_source=source,
        max_attempts=config.max_attempts,
        fallback=config.fallback,
        cache=cache,
        prompts_dir=config.prompts_dir or None,
        check=ProgramCheck() if config.check else None,
        max_replans=config.max_replans,
        grammar=config.grammar,
        repair_temperature=config.repair_temperature,
        examples=config.examples,
        replan_attempts=config.replan_attempts,
        goal_blocks=config.goal_blocks,
    )
