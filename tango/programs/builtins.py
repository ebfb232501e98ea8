"""The few pure builtins programs may call, with size guards so no call can allocate or loop without bound."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_SEQUENCE = 10_000
MAX_RANGE = 1_000_000
MAX_INT_BITS = 64


class ValueLimitError(ValueError):
    """A value would exceed the language's size limits."""


def check_size(value: Any) -> Any:
    """Return `value` unchanged if it is within the size limits, else raise ValueLimitError."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ValueLimitError(f"integer too large (more than {MAX_INT_BITS} bits)")
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_SEQUENCE:
        raise ValueLimitError(
            f"{type(value).__name__} of {len(value)} items exceeds the limit of {MAX_SEQUENCE}"
        )
    return value


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


def _str(value: Any = "") -> str:
    return check_size(str(value))


def _int(value: Any) -> int:
    if isinstance(value, str) and len(value) > 20:
        raise ValueLimitError("int() of a string longer than 20 characters")
    return check_size(int(value))


@dataclass(frozen=True)
class Builtin:
    """A builtin's implementation and how many arguments it takes (max None = any number)."""

    func: Callable[..., Any]
    min_args: int
    max_args: int | None


BUILTINS: dict[str, Builtin] = {
    "len": Builtin(len, 1, 1),
    "min": Builtin(_min, 1, None),
    "max": Builtin(_max, 1, None),
    "range": Builtin(_range, 1, 3),
    "str": Builtin(_str, 0, 1),
    "int": Builtin(_int, 1, 1),
    "float": Builtin(float, 1, 1),
    "abs": Builtin(abs, 1, 1),
    "round": Builtin(round, 1, 2),
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
