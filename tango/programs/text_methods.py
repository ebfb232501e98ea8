"""The text methods a program may call in an expression (`ans.lower()`, `'yes' in ans.strip()`), as TANGO's
interpreter allows by evaluating each expression with Python: the parser rewrites `x.lower()` to the builtin
`text_lower(x)` (tango.programs.compat), which refuses anything but a text and any result past the size limit
before it is built. Methods that reach beyond the text (`format`, `format_map`: attribute lookups through
`{0.attr}`) or only make sense with bytes are not here, nor are methods that change a list in place (a
statement like `items.append(x)` fails in TANGO too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tango.programs.values import MAX_SEQUENCE, ValueLimitError

PREFIX = "text_"


def _text(value: Any, method: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f".{method}() is a method of texts, not of {type(value).__name__}")
    return value


def _texts(values: Any, method: str) -> list[str]:
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f".{method}() needs a list of texts")
    return list(values)


def _plain(method: str) -> Callable[..., Any]:
    """A method whose result is no longer than its text and its arguments (lower, strip, split, find, ...)."""

    def call(text: Any, *args: Any) -> Any:
        for arg in args:
            if (arg is not None and not isinstance(arg, (str, int))) or isinstance(arg, bool):
                raise TypeError(f".{method}() takes texts and integers, not {type(arg).__name__}")
        return getattr(_text(text, method), method)(*args)

    return call


def _replace(text: Any, old: Any, new: Any, count: Any = -1) -> str:
    text, old, new = _text(text, "replace"), _text(old, "replace"), _text(new, "replace")
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(".replace() count must be an integer")
    times = text.count(old) if old else len(text) + 1
    times = times if count < 0 else min(times, count)
    size = len(text) + times * (len(new) - len(old))
    if size > MAX_SEQUENCE:
        raise ValueLimitError(f"the text would be {size} characters long; the limit is {MAX_SEQUENCE}")
    return text.replace(old, new, count)


def _join(separator: Any, values: Any) -> str:
    separator, items = _text(separator, "join"), _texts(values, "join")
    size = sum(len(item) for item in items) + len(separator) * max(len(items) - 1, 0)
    if size > MAX_SEQUENCE:
        raise ValueLimitError(f"the text would be {size} characters long; the limit is {MAX_SEQUENCE}")
    return separator.join(items)


_PLAIN_ARITIES: dict[str, tuple[int, int]] = {
    "lower": (0, 0),
    "upper": (0, 0),
    "capitalize": (0, 0),
    "title": (0, 0),
    "strip": (0, 1),
    "lstrip": (0, 1),
    "rstrip": (0, 1),
    "startswith": (1, 1),
    "endswith": (1, 1),
    "split": (0, 2),
    "count": (1, 1),
    "find": (1, 1),
    "isdigit": (0, 0),
}
TEXT_METHODS: dict[str, tuple[Callable[..., Any], int, int]] = {
    **{name: (_plain(name), low + 1, high + 1) for name, (low, high) in _PLAIN_ARITIES.items()},
    "replace": (_replace, 3, 4),
    "join": (_join, 2, 2),
}
"""Method name -> (implementation taking the text first, min and max arguments counting the text)."""
