"""Command line: `python -m tango.programs check [--raw] FILE...` and `python -m tango.programs prompt --task goat`.

`check FILE` prints the canonical program (errors on stderr); `check --raw FILE...` reads each file as a model
reply through the same extraction the generators use and prints one `ok PATH` / `error PATH:LINE: reason` line
per file; the exit status is 0 only when every file holds a valid program. With `--field NAME` each FILE is a JSON
object or list of replies held in each entry's NAME (TANGO's api-answers files: `--field generated_code`), reported
as `FILE#KEY`; a count of the replies that passed ends the output (on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from tango.primitives import DEFAULT_TOOLBOX, RegistryError
from tango.programs.errors import ProgramError
from tango.programs.parser import parse
from tango.programs.prompt import PromptError, prompt_for_task


def _check(path: Path, toolbox: str) -> int:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
        return 2
    try:
        program = parse(text, toolbox=toolbox)
    except ProgramError as error:
        print(f"{path}:{error.line or 0}: {error.reason}", file=sys.stderr)
        return 1
    except RegistryError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    print(program.source, end="")
    return 0


def _replies(paths: list[Path], field: str | None) -> Iterator[tuple[str, str | None, str]]:
    """(name, reply text or None, why it could not be read) for each reply in `paths`."""
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            yield str(path), None, f"cannot read: {error.strerror}"
            continue
        if field is None:
            yield str(path), text, ""
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            yield str(path), None, f"not JSON: {error.msg} at line {error.lineno}"
            continue
        entries = (
            data.items() if isinstance(data, dict) else enumerate(data if isinstance(data, list) else [])
        )
        for key, entry in entries:
            reply = entry.get(field) if isinstance(entry, dict) else None
            if isinstance(reply, str):
                yield f"{path}#{key}", reply, ""
            else:
                yield f"{path}#{key}", None, f"no text field {field!r}"


def _check_raw(paths: list[Path], toolbox: str, field: str | None = None) -> int:
    failed = total = 0
    for name, text, unreadable in _replies(paths, field):
        total += 1
        if text is None:
            print(f"error {name}: {unreadable}")
            failed += 1
            continue
        try:
            program = parse(text, toolbox=toolbox)
        except ProgramError as error:
            print(f"error {name}:{error.line or 0}: {error.reason}")
        except RegistryError as error:
            print(f"error {name}: {error}")
        else:
            print(f"ok {name}")
            for warning in program.warnings:
                print(f"warning {name}: {warning}", file=sys.stderr)
            continue
        failed += 1
    if field is not None:
        share = f" ({(total - failed) / total:.1%})" if total else ""
        print(f"{total - failed} of {total} replies ok{share}", file=sys.stderr)
    return 1 if failed else 0


def _prompt(task: str, instruction: str, prompts_dir: str | None) -> int:
    try:
        prompt = prompt_for_task(task, prompts_dir)
    except (PromptError, RegistryError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(prompt.text(instruction), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.programs", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="parse program files (or, with --raw, model replies)")
    check.add_argument("files", type=Path, nargs="+")
    check.add_argument(
        "--raw", action="store_true", help="each file is a model reply: one ok/error line each"
    )
    check.add_argument("--toolbox", default=DEFAULT_TOOLBOX)
    check.add_argument(
        "--field", default=None, help="with --raw: each file is JSON; the replies are each entry's FIELD"
    )
    prompt = commands.add_parser("prompt", help="print the full prompt the LLM would see")
    prompt.add_argument("--task", required=True)
    prompt.add_argument("--instruction", default="<the episode's instruction>")
    prompt.add_argument("--prompts-dir", default=None)
    args = parser.parse_args(argv)
    if args.command == "check" and args.raw:
        return _check_raw(args.files, args.toolbox, args.field)
    if args.command == "check":
        return max(_check(path, args.toolbox) for path in args.files)
    return _prompt(args.task, args.instruction, args.prompts_dir)


if __name__ == "__main__":
    sys.exit(main())
