"""Reading benchmark files field by field: errors that name the file, the episode and the field, and the good
episodes of a file kept apart from its malformed ones (`Loaded`).

A file that cannot be read as its benchmark publishes it raises `DatasetError`. Inside a readable file, parsing
one record raises `FieldError` (the field's dotted path and the problem); `parse_each` turns that into an
`EpisodeError` for that record and keeps parsing the others.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
T = TypeVar("T")

QUATERNION_NORM_TOLERANCE = 0.01


class DatasetError(ValueError):
    """A dataset file is missing or does not have the shape its benchmark publishes; the message names the file."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = str(path)
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        return (DatasetError, (self.path, self.problem))


class EpisodeError(DatasetError):
    """One episode of a readable file is malformed: the message names the file, the episode and the field."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        episode: str,
        field_name: str,
        problem: str,
        record: Any = None,
        index: int | None = None,
    ) -> None:
        super().__init__(path, f"{episode}: {field_name}: {problem}")
        self.episode = episode
        self.field = field_name
        self.detail = problem
        self.record = record
        self.index = index

    def __reduce__(self) -> tuple[Any, ...]:
        return (EpisodeError, (self.path, self.episode, self.field, self.detail, self.record, self.index))

    def record_field(self, key: str) -> str | None:
        """A top-level string or integer field of the malformed record ("episode_id", "scene_id"), if readable."""
        value = self.record.get(key) if isinstance(self.record, dict) else None
        return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


class FieldError(ValueError):
    """Raised while parsing one record: the field (a dotted path) and what is wrong with it; the loader adds
    the file and the episode (EpisodeError)."""

    def __init__(self, field_name: str, problem: str) -> None:
        super().__init__(f"{field_name}: {problem}")
        self.field = field_name
        self.problem = problem


@dataclass
class Loaded(Generic[T]):
    """What a loader read: the well-formed episodes, and one named problem per malformed episode."""

    episodes: list[T]
    problems: list[EpisodeError] = field(default_factory=list)

    def strict(self) -> list[T]:
        """The episodes, or the first problem raised when any episode is malformed (the whole file refused)."""
        if self.problems:
            first = self.problems[0]
            more = len(self.problems) - 1
            raise EpisodeError(
                first.path,
                first.episode,
                first.field,
                first.detail + (f" (and {more} more malformed episode(s))" if more else ""),
                first.record,
                first.index,
            )
        return self.episodes


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a .json or .json.gz file; a missing or malformed file raises DatasetError naming it."""
    p = Path(path)
    if not p.is_file():
        raise DatasetError(p, "file not found")
    try:
        if p.name.endswith(".gz"):
            with gzip.open(p, "rt", encoding="utf-8") as fh:
                return json.load(fh)
        with p.open("r", encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise DatasetError(p, f"malformed JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DatasetError(p, f"unreadable ({exc})") from exc


def join(where: str, key: str) -> str:
    """The dotted path of `key` inside the record at `where` ("" for an episode's own fields)."""
    return f"{where}.{key}" if where else key


def require(record: Any, key: str, where: str = "") -> Any:
    """record[key], or a FieldError naming the field (`where` is the record's own dotted path)."""
    name = join(where, key)
    if not isinstance(record, dict):
        raise FieldError(where or key, f"must be a JSON object, got {short(record)}")
    if key not in record:
        raise FieldError(name, "missing")
    return record[key]


def text(value: Any, name: str) -> str:
    """A non-empty string, or a FieldError."""
    if not isinstance(value, str) or not value:
        raise FieldError(name, f"must be a non-empty string, got {short(value)}")
    return value


def vec3(value: Any, name: str) -> Vec3:
    """A 3-vector of finite numbers, or a FieldError."""
    return _floats(value, 3, name)  # type: ignore[return-value]


def quat(value: Any, name: str) -> Quat:
    """A unit quaternion [x, y, z, w] of finite numbers, or a FieldError."""
    q = _floats(value, 4, name)
    if abs(math.sqrt(sum([v * v for v in q])) - 1.0) > QUATERNION_NORM_TOLERANCE:
        raise FieldError(name, f"must be a unit quaternion [x, y, z, w], got {list(q)}")
    return q  # type: ignore[return-value]


def _floats(value: Any, n: int, name: str) -> tuple[float, ...]:
    # (a plain loop: episode files hold hundreds of thousands of these vectors)
    if isinstance(value, (list, tuple)) and len(value) == n:
        for v in value:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                break
        else:
            numbers = tuple([float(v) for v in value])
            if all(map(math.isfinite, numbers)):
                return numbers
    raise FieldError(name, f"must be a list of {n} finite numbers, got {short(value)}")


def short(value: Any, limit: int = 80) -> str:
    """A value as repr, cut to `limit` characters for messages."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def episode_label(raw: Any, index: int, kind: str = "episode", id_field: str = "episode_id") -> str:
    """ "episode 3 (episode_id '17')" or "episode 3" when the record has no readable id."""
    own = raw.get(id_field) if isinstance(raw, dict) else None
    return f"{kind} {index}" + (f" ({id_field} {own!r})" if isinstance(own, (str, int)) else "")


def parse_each(
    file: Path,
    records: list[Any],
    parse: Callable[[Any, int], T],
    label: Callable[[Any, int], str] = episode_label,
) -> Loaded[T]:
    """Parse every record; a FieldError becomes that record's named problem and the others are kept."""
    loaded: Loaded[T] = Loaded([])
    for index, raw in enumerate(records):
        try:
            loaded.episodes.append(parse(raw, index))
        except FieldError as exc:
            loaded.problems.append(EpisodeError(file, label(raw, index), exc.field, exc.problem, raw, index))
    return loaded
