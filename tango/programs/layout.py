"""Program layout that Python refuses but TANGO's interpreter reads, put into Python's layout.

TANGO's interpreter (filippoziliotto/TANGO, code_interpreter/interpreter_orig.py) reads a program line by line:
a block header's condition is the text between its keyword and the first colon (so `if is_found(x)::`, which
TANGO's own ObjectNav, OVON and GOAT prompts write, and a header without its colon both read as `if
is_found(x):`), and a line's depth is only its own indentation (its level: spaces // 4), so a block is the lines
after a header at a deeper level, and a line indented deeper than the line before (TANGO's OpenEQA example prompt
does this; so does the `go_upstairs()\\n ` it puts before a program for a floor change) simply runs next.

`repair(text, reindent)` is tried only when Python cannot parse a program: first the colons alone, then with every
line re-indented by that rule. It changes the layout, never a line's words, and keeps the line count (so error
lines still point at the reply); the caller keeps the repaired text only when Python parses it.
"""

from __future__ import annotations

import re

INDENT = "    "
_HEADER = re.compile(r"^(?:if|elif|while|for|else)\b")
_CONTINUES_BLOCK = re.compile(r"^(?:elif|else)\b")
_EXTRA_COLONS = re.compile(r"^(.*?[^:]):{2,}$")


def repair(text: str, reindent: bool, offset: int = 0) -> tuple[str, list[str]]:
    """The text with its headers' colons fixed and, with `reindent`, every line re-indented by TANGO's rule;
    and a warning per kind of change (no warnings: nothing was changed), its line `offset` lines down."""
    lines = text.split("\n")
    out: list[str] = []
    changed: dict[str, int] = {}
    open_headers: list[int] = []  # TANGO's levels (indentation // 4) of the headers whose blocks are open
    depth = 0  # open brackets: a line inside them continues a statement and keeps its layout
    for number, line in enumerate(lines, start=1):
        code = _code_part(line).rstrip()
        stripped = code.strip()
        if depth > 0 or not stripped:
            depth = max(0, depth + _bracket_balance(code))
            extra = _EXTRA_COLONS.match(code) if depth == 0 and stripped else None
            if extra is not None:  # the last line of a header written over several lines
                changed.setdefault("colon", number)
                line = extra.group(1) + ":" + line[len(code) :]
            out.append(line)
            continue
        width = len(line) - len(line.lstrip(" "))
        tango_level = width // len(INDENT)
        while (
            open_headers
            and tango_level <= open_headers[-1]
            and not (_CONTINUES_BLOCK.match(stripped) and tango_level == open_headers[-1])
        ):
            open_headers.pop()
        if _CONTINUES_BLOCK.match(stripped) and open_headers and tango_level == open_headers[-1]:
            open_headers.pop()
        level = len(open_headers)
        new_code = stripped
        if _HEADER.match(stripped) and _bracket_balance(code) > 0:
            open_headers.append(tango_level)  # a header over several lines: its colon ends the last one
        elif _HEADER.match(stripped):
            new_code = _one_colon(stripped, _next_is_deeper(lines, number, tango_level))
            if new_code != stripped:
                changed.setdefault("colon", number)
            if new_code.endswith(":"):
                open_headers.append(tango_level)
        indent = INDENT * level if reindent else line[:width]
        if len(indent) != width:
            changed.setdefault("indent", number)
        if len(indent) != width or new_code != stripped:
            comment = line[len(_code_part(line)) :].strip()
            line = indent + new_code + ("  " + comment if comment else "")
        out.append(line)
        depth = max(0, _bracket_balance(code))
    warnings = []
    if "colon" in changed:
        warnings.append(
            f"line {changed['colon'] + offset}: a block header with no colon or more than one is read as TANGO reads "
            "it: its condition ends at the first colon"
        )
    if "indent" in changed:
        warnings.append(
            f"line {changed['indent'] + offset}: indentation is read as TANGO reads it: a block is the lines after its "
            "header indented more than the header; a line indented deeper than the one before runs next"
        )
    return "\n".join(out), warnings


def _one_colon(header: str, body_follows: bool) -> str:
    """`if x::` -> `if x:`; `if x` followed by a deeper line -> `if x:`; anything else unchanged."""
    extra = _EXTRA_COLONS.match(header)
    if extra is not None:
        return extra.group(1) + ":"
    if not header.endswith(":") and body_follows and ":" not in _strings_removed(header):
        return header + ":"
    return header


def _next_is_deeper(lines: list[str], number: int, level: int) -> bool:
    """True when the next code line after line `number` (1-based) is at a deeper TANGO level than `level`."""
    for line in lines[number:]:
        if _code_part(line).strip():
            return (len(line) - len(line.lstrip(" "))) // len(INDENT) > level
    return False


def _code_part(line: str) -> str:
    """The line up to a comment (a '#' outside quotes)."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return line[:index]
    return line


def _strings_removed(code: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", code)


def _bracket_balance(code: str) -> int:
    """Opening minus closing brackets outside quotes."""
    bare = _strings_removed(code)
    return sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")
