"""Build (nested) dataclass configs from the plain dicts hydra resolves to, rejecting unknown keys by name."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, TypeVar

T = TypeVar("T")


def dataclass_from_dict(
    cls: type[T], values: Any, section: str = "", error: type[Exception] = ValueError
) -> T:
    """`cls(**values)` with nested dataclass fields built recursively; an unknown key raises `error` naming the
    section (e.g. "unknown sim setting(s) ['fov']; known: [...]", "unknown graphnav.env setting(s) ...")."""
    values = dict(values or {})
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - known)
    if unknown:
        raise error(f"unknown {section + ' ' if section else ''}setting(s) {unknown}; known: {sorted(known)}")
    built: dict[str, Any] = {}
    for name, value in values.items():
        hint = hints.get(name)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, dict):
            built[name] = dataclass_from_dict(hint, value, f"{section}.{name}" if section else name, error)
        else:
            built[name] = value
    return cls(**built)
