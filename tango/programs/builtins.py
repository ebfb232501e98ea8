"""The few pure builtins programs may call, with size guards so no call can allocate or loop without bound."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tango.programs.text_methods import PREFIX, TEXT_METHODS
from tango.programs.values import MAX_RANGE, MAX_SEQUENCE, ValueLimitError, check_size

MAX_ROUND_DIGITS = 20
"""round(x, n) with |n| above this is refused: for an integer, n = -10**8 alone would compute 10**(10**8)."""
FORMAT_SPEC = re.compile(r"(?:[^{}]?[<>=^])?[+\- ]?#?0?\d{0,2}[,_]?(?:\.\d{1,2})?[bcdeEfFgGnosxX%]?")
"""Python's format-spec mini-language with a width and a precision of at most two digits (f-strings' `{x:.2f}`):
the text it makes stays short whatever the spec."""


def _bounded(values: Any) -> Any:
    if isinstance(values, range) and len(values) > MAX_SEQUENCE:
        raise ValueLimitError(f"range of {len(values)} items is too long to scan (limit {MAX_SEQUENCE})")
    return values


def _range(*args: int) -> range:
    for arg in args:
        if not isinstance(arg, int):
            raise TypeError(f"range() needs integers, got {type(arg).__name__}")
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise ValueLimitError(f"range of {len(result)} items exceeds the limit of {MAX_RANGE}")
    return result


def _min(*args: Any) -> Any:
    return min(_bounded(args[0])) if len(args) == 1 else min(args)


def _max(*args: Any) -> Any:
    return max(_bounded(args[0])) if len(args) == 1 else max(args)


def _round(number: Any, digits: Any = None) -> Any:
    if digits is not None and (not isinstance(digits, int) or abs(digits) > MAX_ROUND_DIGITS):
        raise ValueLimitError(f"digits must be an integer within ±{MAX_ROUND_DIGITS}, got {digits!r}")
    return round(number) if digits is None else round(number, digits)


def _str(value: Any = "") -> str:
    return check_size(str(value))


def _int(value: Any) -> int:
    if isinstance(value, str) and len(value) > 20:
        raise ValueLimitError("int() of a string longer than 20 characters")
    return check_size(int(value))


def _list(values: Any = ()) -> list[Any]:
    return list(_bounded(values))


def _sum(values: Any) -> Any:
    return sum(_bounded(values))


def _sorted(values: Any) -> list[Any]:
    return sorted(_bounded(values))


def _any(values: Any) -> bool:
    return any(_bounded(values))


def _all(values: Any) -> bool:
    return all(_bounded(values))


def _format(value: Any, spec: Any = "") -> str:
    if not isinstance(spec, str) or FORMAT_SPEC.fullmatch(spec) is None:
        raise ValueError(f"{spec!r} is not a format spec of at most two-digit width and precision")
    if not isinstance(value, (int, float, str, bool)):
        raise TypeError(f"format() formats a number or a text, not {type(value).__name__}")
    return check_size(format(value, spec))


@dataclass(frozen=True)
class Builtin:
    """A builtin's implementation and how many arguments it takes (max None = any number). `offered` ones are
    in the prompt's language and the decoding grammar; the others are accepted because TANGO's programs use
    them (its interpreter evaluates expressions with Python's builtins) but not offered to a model."""

    func: Callable[..., Any]
    min_args: int
    max_args: int | None
    offered: bool = True


BUILTINS: dict[str, Builtin] = {
    "len": Builtin(len, 1, 1),
    "min": Builtin(_min, 1, None),
    "max": Builtin(_max, 1, None),
    "range": Builtin(_range, 1, 3),
    "str": Builtin(_str, 0, 1),
    "int": Builtin(_int, 1, 1),
    "float": Builtin(float, 1, 1),
    "abs": Builtin(abs, 1, 1),
    "round": Builtin(_round, 1, 2),
    "list": Builtin(_list, 0, 1, offered=False),
    "sum": Builtin(_sum, 1, 1, offered=False),
    "sorted": Builtin(_sorted, 1, 1, offered=False),
    "any": Builtin(_any, 1, 1, offered=False),
    "all": Builtin(_all, 1, 1, offered=False),
    "bool": Builtin(bool, 0, 1, offered=False),
    "format": Builtin(_format, 1, 2, offered=False),
    **{
        PREFIX + name: Builtin(func, low, high, offered=False)
        for name, (func, low, high) in TEXT_METHODS.items()
    },
}

FORBIDDEN_CALLS = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "open",
        "getattr",
        "setattr",
        "delattr",
        "globals",
        "locals",
        "vars",
        "input",
        "print",
        "help",
        "dir",
        "type",
        "object",
        "breakpoint",
        "exit",
        "quit",
        "memoryview",
    }
)
