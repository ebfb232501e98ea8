"""Program values under limits: sizes measured once per list so any operation's cost is known before it runs,
and a rendering of any value cut at a length without building the whole text first."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

MAX_SEQUENCE = 10_000
MAX_RANGE = 1_000_000
MAX_INT_BITS = 64
MAX_NESTED_ELEMENTS = 100_000
MAX_NESTING_DEPTH = 16
MEASURED_LISTS_KEPT = 4096
"""How many lists' measures a run remembers (the oldest are forgotten and measured again when needed), so a
program that builds many lists cannot keep them all alive through the guard."""


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


@dataclass(frozen=True)
class Measure:
    """The size of a value counted per reference (a list holding one string 10 times counts it 10 times), which
    is what comparing, searching or printing it touches: list items at every depth, nesting depth, and the
    characters of every string inside."""

    elements: int = 0
    depth: int = 0
    chars: int = 0

    @property
    def weight(self) -> int:
        """The work units an operation over the whole value may take (at least 1)."""
        return 1 + self.elements + self.chars

    @property
    def min_text(self) -> int:
        """A lower bound of len(str(value)): every item prints at least one character, strings all of theirs."""
        return self.elements + self.chars


class ValueGuard:
    """Bounds the values of one run: total list items and depth, and measures every value's size.

    Program lists are never mutated (the language has no methods or item assignment), so each list's measure
    is computed once from its already-measured items and remembered by identity (the most recent
    `MEASURED_LISTS_KEPT` lists).
    """

    def __init__(self, max_elements: int = MAX_NESTED_ELEMENTS, max_depth: int = MAX_NESTING_DEPTH) -> None:
        self.max_elements = max_elements
        self.max_depth = max_depth
        self._measured: OrderedDict[int, tuple[Any, Measure]] = OrderedDict()

    def check(self, value: Any) -> Any:
        """Return `value` if within all limits, else raise ValueLimitError."""
        check_size(value)
        if isinstance(value, (list, tuple)):
            self.measure(value)
        return value

    def measure(self, value: Any) -> Measure:
        """The size of `value` (ValueLimitError when a list in it passes the limits)."""
        if isinstance(value, str):
            return Measure(chars=len(value))
        if not isinstance(value, (list, tuple)):
            return Measure()
        known = self._measured.get(id(value))
        if known is not None and known[0] is value:
            self._measured.move_to_end(id(value))
            return known[1]
        elements, depth, chars = len(value), 1, 0
        for item in value:
            inner = self.measure(item)
            elements += inner.elements
            chars += inner.chars
            depth = max(depth, inner.depth + 1)
            if elements > self.max_elements:
                raise ValueLimitError(
                    f"nested lists of more than {elements} elements exceed the limit of {self.max_elements}"
                )
        if depth > self.max_depth:
            raise ValueLimitError(f"lists nested more than {self.max_depth} deep")
        result = Measure(elements, depth, chars)
        self._measured[id(value)] = (value, result)
        if len(self._measured) > MEASURED_LISTS_KEPT:
            self._measured.popitem(last=False)
        return result

    def weight(self, *values: Any) -> int:
        """The work units of an operation over all of `values`."""
        return sum(self.measure(value).weight for value in values)


def bounded_text(value: Any, limit: int) -> tuple[str, bool]:
    """`str(value)` cut to `limit` characters, built only as far as the cut; True when something was cut.

    For a program's answer or return value, which may be a list far too large to print whole.
    """
    if isinstance(value, str):
        return (value, False) if len(value) <= limit else (value[:limit], True)
    if not isinstance(value, (list, tuple)):
        text = str(value)
        return (text, False) if len(text) <= limit else (text[:limit], True)
    parts: list[str] = []
    size = 0

    def emit(text: str) -> bool:
        """Add `text`; True once the limit is passed (rendering stops)."""
        nonlocal size
        parts.append(text)
        size += len(text)
        return size > limit

    def walk(item: Any, depth: int) -> bool:
        if not isinstance(item, (list, tuple)):
            return emit(repr(item[: limit + 1]) if isinstance(item, str) else repr(item))
        if depth > MAX_NESTING_DEPTH:
            return emit("[...]")
        if emit("[" if isinstance(item, list) else "("):
            return True
        for index, child in enumerate(item):
            if (index and emit(", ")) or walk(child, depth + 1):
                return True
        closing = "]" if isinstance(item, list) else ("," if len(item) == 1 else "") + ")"
        return emit(closing)

    cut = walk(value, 0)
    text = "".join(parts)
    return (text[:limit], True) if cut else (text, False)
