"""The few pure builtins programs may call, with size guards so no call can allocate or loop without bound."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_SEQUENCE = 10_000
MAX_RANGE = 1_000_000
MAX_INT_BITS = 64
MAX_NESTED_ELEMENTS = 100_000
MAX_NESTING_DEPTH = 16


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


class ValueGuard:
    """Bounds nested lists of one run: total elements and depth, so comparing or printing them stays cheap.

    Program lists are never mutated (the language has no methods or item assignment), so each list's
    measure is computed once, from its already-measured children, and kept by identity.
    """

    def __init__(self, max_elements: int = MAX_NESTED_ELEMENTS, max_depth: int = MAX_NESTING_DEPTH) -> None:
        self.max_elements = max_elements
        self.max_depth = max_depth
        self._measured: dict[int, tuple[Any, int, int]] = {}

    def check(self, value: Any) -> Any:
        """Return `value` if within all limits, else raise ValueLimitError."""
        check_size(value)
        if isinstance(value, (list, tuple)):
            self._measure(value)
        return value

    def _measure(self, value: list[Any] | tuple[Any, ...]) -> tuple[int, int]:
        known = self._measured.get(id(value))
        if known is not None and known[0] is value:
            return known[1], known[2]
        elements, depth = len(value), 1
        for item in value:
            if isinstance(item, (list, tuple)):
                inner_elements, inner_depth = self._measure(item)
                elements += inner_elements
                depth = max(depth, inner_depth + 1)
        if depth > self.max_depth:
            raise ValueLimitError(f"lists nested more than {self.max_depth} deep")
        if elements > self.max_elements:
            raise ValueLimitError(
                f"nested lists of {elements} elements exceed the limit of {self.max_elements}"
            )
        self._measured[id(value)] = (value, elements, depth)
        return elements, depth


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
