"""The one function that turns a model reply into program text, for every reply the parser sees.

Real replies wrap the program in markdown fences with any language tag (```python, ```pseudo, ```plaintext
or none), put prose before or after it, or keep writing: another "Question:" with a program of their own, or
the examples again, or the same program over and over. The FIRST program is the answer: the first fenced
block, else the text after the first "Program:" line, cut at the next "Question:"/"Program:" line, with leading
and trailing prose dropped and a program that repeats itself kept once.
"""

from __future__ import annotations

import keyword
import re
import textwrap
from dataclasses import dataclass

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\t": "    "})
_FENCE = re.compile(r"^[ \t]*```[^\n`]*\n(.*?)(?:^[ \t]*```|\Z)", re.DOTALL | re.MULTILINE)
_PROGRAM_LINE = re.compile(r"^\s*(?:#+\s*)?\**Program\**\s*:\s*(.*)$", re.IGNORECASE)
_QUESTION_LINE = re.compile(r"^\s*(?:#+\s*)?\**(?:Question|Instruction|Task)\**\s*:", re.IGNORECASE)
_WORDS = re.compile(r"^([A-Za-z][A-Za-z'-]*),? +[A-Za-z]")
_SOFT_KEYWORDS = frozenset({"match", "case"})
_FIRST_WORD = re.compile(r"^([A-Za-z_]\w*)\b")
_STATEMENT = re.compile(
    r"^[A-Za-z_]\w*(?:\.\w+)*\s*(?:\(|\[|=(?!=)|[-+*/%]=|,\s*[A-Za-z_]\w*\s*=)|^[(\['\"\d-]"
)
_BARE = re.compile(r"^(?:[A-Za-z_]\w*|\d+|'[^']*'|\"[^\"]*\")[.!]?$")


@dataclass(frozen=True)
class Extracted:
    """The program text of a reply and how many reply lines come before it (for error line numbers)."""

    text: str
    offset: int


def extract_program(reply: str) -> Extracted:
    """The first program in a model reply (see the module docstring for the rules)."""
    text = reply.replace("\r\n", "\n").replace("\r", "\n").translate(_QUOTES)
    offset = 0
    lines = text.split("\n")
    first_program = next((i for i, line in enumerate(lines) if _PROGRAM_LINE.match(line)), None)
    fence = _FENCE.search(text)
    fence_line = text[: fence.start()].count("\n") if fence is not None else None
    if (
        fence is not None
        and fence_line is not None
        and (first_program is None or fence_line <= first_program + 1)
    ):
        offset = fence_line + 1
        lines = fence.group(1).split("\n")
        first_program = next((i for i, line in enumerate(lines) if _PROGRAM_LINE.match(line)), None)
    if first_program is not None:
        rest = _PROGRAM_LINE.match(lines[first_program])
        inline = rest.group(1).strip() if rest else ""
        if inline and is_code(inline):
            lines = [inline, *lines[first_program + 1 :]]
            offset += first_program
        else:
            lines = lines[first_program + 1 :]
            offset += first_program + 1
    start = next((i for i, line in enumerate(lines) if is_code(line) and not _bare_word(line)), len(lines))
    offset += start
    lines = _first_period(_until_next_block(lines[start:]))
    return Extracted(textwrap.dedent("\n".join(lines)).rstrip() + "\n", offset)


def _until_next_block(lines: list[str]) -> list[str]:
    """Lines up to the next Question/Program marker, a closing fence, or prose at the left margin."""
    kept: list[str] = []
    for line in lines:
        if _QUESTION_LINE.match(line) or _PROGRAM_LINE.match(line) or line.strip().startswith("```"):
            break
        at_margin = bool(line.strip()) and not line[:1].isspace()
        if at_margin and is_prose(line) and not _is_continuation(kept):
            break
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def _first_period(lines: list[str]) -> list[str]:
    """The program once when the model wrote it again and again: the rest repeats the start line by line from
    a top-level statement, the start holds a block, and there are three copies or the last is cut short (the
    token limit: it ends inside a line or a block of the start). Two whole copies stay: a program may mean to
    search for the same thing twice; so does a start repeated after other goals ("A, B, then A again")."""
    last = len(lines) - 1
    for period in range(1, len(lines)):
        if lines[period][:1].isspace() or not lines[period].strip():
            continue
        if not any(line.rstrip().endswith(":") for line in lines[:period]):
            continue
        if not all(_repeats(lines[j], lines[j - period], j == last) for j in range(period, len(lines))):
            continue
        ends_inside_block = len(lines) % period != 0 and lines[len(lines) % period][:1].isspace()
        cut_short = lines[last].rstrip() != lines[last - period].rstrip() or ends_inside_block
        if cut_short or len(lines) // period >= 3:
            return lines[:period]
    return lines


def _repeats(line: str, original: str, may_be_cut: bool) -> bool:
    line, original = line.rstrip(), original.rstrip()
    return line == original or (may_be_cut and original.startswith(line))


def _is_continuation(kept: list[str]) -> bool:
    """True when the previous code line leaves a bracket open (the next line continues the statement)."""
    text = "\n".join(kept)
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


def is_code(line: str) -> bool:
    """True when the line reads as the start of a Python statement: a comment, a keyword-led statement or
    clause, or a name followed by a call, an assignment or an index (decided by pattern, not by compiling:
    compiling a sentence raises SyntaxError, which makes CPython look for a source file)."""
    stripped = line.strip()
    if not stripped:
        return False
    if stripped.startswith("#"):
        return True
    word = _FIRST_WORD.match(stripped)
    if word is not None and (keyword.iskeyword(word.group(1)) or word.group(1) in _SOFT_KEYWORDS):
        return True
    return _STATEMENT.match(stripped) is not None


def is_prose(line: str) -> bool:
    """True for a sentence rather than (possibly broken) code: not a statement, no assignment, and it opens
    with two words of which the first is not a Python keyword ('This program ...', 'Note that ...')."""
    stripped = line.strip()
    if is_code(stripped) or "=" in stripped or stripped.endswith(":"):
        return False
    words = _WORDS.match(stripped)
    return words is not None and not keyword.iskeyword(words.group(1))


def _bare_word(line: str) -> bool:
    """A line that is only a name or a constant ('Sure', 'Done'): prose, not the start of a program."""
    stripped = line.strip().rstrip(".!")
    return _BARE.match(stripped) is not None and not keyword.iskeyword(stripped)
