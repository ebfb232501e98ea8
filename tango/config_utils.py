"""Build (nested) dataclass configs from the plain dicts hydra resolves to, rejecting unknown keys."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, TypeVar

T = TypeVar("T")


def dataclass_from_dict(cls: type[T], values: dict[str, Any] | None, where: str = "") -> T:
    """`cls(**values)` with nested dataclass fields built recursively; an unknown key names its full path."""
    values = dict(values or {})
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"unknown setting(s) {[f'{where}{k}' for k in unknown]}; known: {sorted(known)}")
    built: dict[str, Any] = {}
    for name, value in values.items():
        hint = hints.get(name)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, dict):
            built[name] = dataclass_from_dict(hint, value, f"{where}{name}.")
        else:
            built[name] = value
    return cls(**built)
