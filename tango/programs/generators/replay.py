"""Programs read from a JSONL file (instruction -> program): exact reruns, or programs written elsewhere.

Each line is an object with `instruction` and `program` (and optionally `task`); a run's own
`episodes.jsonl` has these fields, so a previous run can be replayed as is.
"""

from __future__ import annotations

import json
from pathlib import Path

from tango.programs.errors import ProgramError
from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.config import GeneratorError
from tango.programs.generators.record import GenerationRecord
from tango.programs.parser import parse
from tango.programs.prompt import toolbox_for_task


def load_replay_file(path: str | Path) -> dict[tuple[str, str], str]:
    """Programs keyed by (task, instruction) ('' as task when the line has none); later lines win."""
    source = Path(path)
    if not source.is_file():
        raise GeneratorError(f"replay file {source} does not exist")
    programs: dict[tuple[str, str], str] = {}
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise GeneratorError(f"{source}:{number}: not JSON: {error.msg}") from None
        if not isinstance(item, dict) or not isinstance(item.get("instruction"), str):
            raise GeneratorError(f"{source}:{number}: needs an 'instruction' string")
        if not isinstance(item.get("program"), str):
            continue
        programs[(str(item.get("task") or ""), item["instruction"])] = item["program"]
    return programs


class ReplayGenerator(ProgramGenerator):
    """Looks the instruction up (first with its task, then without) and validates the stored program."""

    name = "replay"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.model = self.path.name
        self.programs = load_replay_file(self.path)

    def generate(self, task: str, instruction: str) -> GenerationRecord:
        text = self.programs.get((task, instruction), self.programs.get(("", instruction)))
        record = GenerationRecord(
            task, instruction, self.name, self.model, "replay", None, raw_text=text or ""
        )
        if text is None:
            record.failure_reason = f"no program for this instruction in {self.path}"
            return record
        try:
            program = parse(text, toolbox=toolbox_for_task(task))
        except ProgramError as error:
            record.errors.append(str(error))
            record.failure_reason = f"replayed program is invalid: {error}"
            return record
        record.program, record.parsed = program.source, program
        return record
