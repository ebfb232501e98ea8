"""Checks of what programs pass to the Habitat primitives: texts of bounded length, finite positions.

A primitive called with an argument that fails a check raises ValueError, which the interpreter records as a
primitive error at the line of the call (the program ends there; see docs/programs.md).
"""

from __future__ import annotations

import math
from typing import Any

MAX_LABEL_CHARS = 200
"""An object or room name (detect, recall, select, map_scene, classify_room): a few words."""
MAX_QUESTION_CHARS = 1000
"""A question (answer) or a goal description (match): GOAT-Bench's longest description is a few sentences."""


def label_text(value: Any, primitive: str) -> str:
    """`value` as an object or room name, refused when it is not a string or is longer than a name can be."""
    return _text(value, primitive, MAX_LABEL_CHARS, "a label")


def question_text(value: Any, primitive: str) -> str:
    """`value` as a question or description, refused past `MAX_QUESTION_CHARS`."""
    return _text(value, primitive, MAX_QUESTION_CHARS, "a question or description")


def _text(value: Any, primitive: str, limit: int, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{primitive} needs {what} as a string, got {type(value).__name__}")
    if len(value) > limit:
        raise ValueError(f"{primitive} takes {what} of at most {limit} characters, got {len(value)}")
    return value


def finite_position(values: Any, primitive: str) -> tuple[float, float, float]:
    """[x, y, z] as floats, refused when a coordinate is not finite (inf or nan)."""
    x, y, z = (float(v) for v in values)
    if not all(math.isfinite(v) for v in (x, y, z)):
        raise ValueError(f"{primitive} needs a finite position [x, y, z], got [{x}, {y}, {z}]")
    return (x, y, z)
