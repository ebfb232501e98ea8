"""The prompt an LLM sees: a toolbox's system text with its generated API section, plus in-context examples.

Prompt files live in the repository's prompts/ folder (one folder per toolbox); the API section comes from
the primitive registry, so a new primitive shows up without editing any prompt file. A task sees the
primitives offered to it (`@primitive(tasks=...)`), and a task with its own examples file
(`prompts/<toolbox>/<task>/examples.txt`, or the file of the task named in `EXAMPLES_OF`) gets those examples
instead of the toolbox's: ObjectNav's and OVON's prompts show `verify()` and searches that call it, while GOAT
and OpenEQA keep the shared prompt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.primitives import Toolbox, get_toolbox

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
TASK_TOOLBOXES: dict[str, str] = {
    "objectnav": "habitat",
    "ovon": "habitat",
    "goat": "habitat",
    "openeqa": "habitat",
    "graphnav": "graphnav",
    "urban": "urban",
}
API_PLACEHOLDER = "{api}"
EXAMPLES_OF: dict[str, str] = {"ovon": "objectnav"}
"""Tasks that read another task's examples file: OVON's instructions have ObjectNav's shape ("Find a sink.")
with open names, so it is shown ObjectNav's checked searches rather than a copy of them."""


class PromptError(ValueError):
    """A task without a toolbox or a toolbox whose prompt files are missing or malformed."""


@dataclass(frozen=True)
class Example:
    """One in-context example: the question and the program text."""

    question: str
    program: str


@dataclass(frozen=True)
class Prompt:
    """The system text (with the API) and the examples for one toolbox; `digest` keys the program cache.

    `task` (empty: none in particular) decides which primitives the decoding grammar offers, as it decided
    the API section; the digest hashes only the text, so a task whose text is the toolbox's keeps its cache."""

    toolbox: str
    system: str
    examples: tuple[Example, ...]
    task: str = ""

    @property
    def examples_text(self) -> str:
        return "\n\n".join(f"Question: {e.question}\nProgram:\n{e.program.rstrip()}" for e in self.examples)

    @property
    def digest(self) -> str:
        return hashlib.sha256((self.system + "\x00" + self.examples_text).encode()).hexdigest()[:16]

    def messages(self, instruction: str) -> list[dict[str, Any]]:
        """Chat messages: the system text, each example as a user question and the assistant's program, then
        the new question. Examples as turns (not one block) keep a chat model from continuing the block with
        questions of its own, and everything before the last turn is the same for every instruction."""
        turns: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        for example in self.examples:
            turns.append({"role": "user", "content": f"Question: {example.question}\nProgram:"})
            turns.append({"role": "assistant", "content": example.program.rstrip() + "\n"})
        turns.append({"role": "user", "content": f"Question: {instruction.strip()}\nProgram:"})
        return turns

    def with_examples(self, examples: tuple[Example, ...]) -> Prompt:
        """The same system text with other examples (its digest, and so its cache key, changes with them)."""
        return Prompt(self.toolbox, self.system, examples, self.task)

    def text(self, instruction: str) -> str:
        """The same content as one plain text in the paper's form (for completion models without a chat template)."""
        return f"{self.system}\n\n{self.examples_text}\n\nQuestion: {instruction.strip()}\nProgram:\n"


def nearest_examples(
    examples: tuple[Example, ...],
    instruction: str,
    count: int,
    similarity: Callable[[list[str], list[str]], Any],
) -> tuple[Example, ...]:
    """The `count` examples whose questions are most similar to `instruction`, least similar first (so the
    nearest one stands right before the question); ties keep the library's order."""
    if count <= 0 or count >= len(examples):
        return examples
    scores = similarity([instruction.strip()], [e.question for e in examples])[0]
    ranked = sorted(range(len(examples)), key=lambda i: (-float(scores[i]), i))[:count]
    return tuple(examples[i] for i in reversed(ranked))


def toolbox_for_task(task: str) -> str:
    if task not in TASK_TOOLBOXES:
        raise PromptError(f"unknown task {task!r}; known tasks: {', '.join(sorted(TASK_TOOLBOXES))}")
    return TASK_TOOLBOXES[task]


def parse_examples(text: str, source: str) -> tuple[Example, ...]:
    """Split an examples file into Question/Program pairs; PromptError names the file when one is malformed."""
    examples: list[Example] = []
    for number, block in enumerate(text.split("Question:")[1:], start=1):
        if "\nProgram:" not in block:
            raise PromptError(f"{source}: example {number} has no 'Program:' line")
        question, program = block.split("\nProgram:", 1)
        examples.append(Example(question.strip(), program.strip("\n") + "\n"))
    if not examples:
        raise PromptError(f"{source}: no 'Question:' examples found")
    return tuple(examples)


def build_prompt(
    toolbox: str | Toolbox, prompts_dir: str | Path | None = None, task: str | None = None
) -> Prompt:
    """The prompt of a toolbox from its prompt files and its registered primitives, as `task` sees it: the
    primitives offered to it, and its own examples file (in a folder named after it, or after the task it reads
    them from in `EXAMPLES_OF`, next to the toolbox's) if there is one."""
    box = toolbox if isinstance(toolbox, Toolbox) else get_toolbox(toolbox)
    root = Path(prompts_dir) if prompts_dir else PROMPTS_DIR
    system_path = root / (box.system_prompt_path or f"{box.name}/system.txt")
    examples_path = root / (box.examples_path or f"{box.name}/examples.txt")
    examples_task = EXAMPLES_OF.get(task, task) if task else None
    if examples_task and (examples_path.parent / examples_task / examples_path.name).is_file():
        examples_path = examples_path.parent / examples_task / examples_path.name
    for path in (system_path, examples_path):
        if not path.is_file():
            raise PromptError(f"prompt file {path} for toolbox {box.name!r} does not exist")
    system = system_path.read_text(encoding="utf-8")
    if API_PLACEHOLDER not in system:
        raise PromptError(
            f"{system_path}: the system prompt must contain {API_PLACEHOLDER} where the API goes"
        )
    system = system.replace(API_PLACEHOLDER, box.api_text(task)).strip() + "\n"
    examples = parse_examples(examples_path.read_text(encoding="utf-8"), str(examples_path))
    return Prompt(box.name, system, examples, task or "")


def prompt_for_task(task: str, prompts_dir: str | Path | None = None) -> Prompt:
    """The prompt the model sees for `task`: its toolbox's, with the primitives and examples of the task."""
    return build_prompt(toolbox_for_task(task), prompts_dir, task)
