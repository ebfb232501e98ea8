"""The split layout habitat-lab's episode datasets share (ObjectNav-v1, HM3D-OVON, GOAT-Bench, PointNav-v1):
a split file `{split}.json.gz` and per-scene content files `content/{scene}.json.gz`, each an object with an
`episodes` list, and the goal tables (`goals_by_category`, GOAT's `goals`) parsed key by key on first use.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

from tango.formats.fields import DatasetError, FieldError, read_json

T = TypeVar("T")


class GoalTable(Generic[T]):
    """A file's goal dict (`goals_by_category` or GOAT's `goals`), each key parsed on first use; a key whose
    goals are malformed fails every episode that uses it, with the goal's field named."""

    def __init__(self, table_name: str, raw: dict[str, Any], parse: Callable[[Any, str], T]) -> None:
        self.table_name = table_name
        self._raw = raw
        self._parse = parse
        self._parsed: dict[str, tuple[T, ...] | FieldError] = {}

    def __contains__(self, key: str) -> bool:
        return key in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def get(self, key: str) -> tuple[T, ...]:
        """The parsed goals of `key` (FieldError when the key is missing, empty or malformed)."""
        if key not in self._parsed:
            self._parsed[key] = self._parse_key(key)
        parsed = self._parsed[key]
        if isinstance(parsed, FieldError):
            raise parsed
        return parsed

    def _parse_key(self, key: str) -> tuple[T, ...] | FieldError:
        name = f"{self.table_name}[{key!r}]"
        if key not in self._raw:
            return FieldError(name, f"missing (no such key in {self.table_name})")
        raw_goals = self._raw[key]
        if not isinstance(raw_goals, list) or not raw_goals:
            return FieldError(name, "must be a non-empty list of goals")
        try:
            return tuple(self._parse(g, f"{name}[{i}]") for i, g in enumerate(raw_goals))
        except FieldError as exc:
            return exc


def goal_table(file: Path, data: dict[str, Any], shared: dict[str, Any], key: str) -> dict[str, Any]:
    """The goal dict `key` of a content file merged over the split file's (HM3D keeps goals in content files)."""
    own = data.get(key, {})
    if not isinstance(own, dict):
        raise DatasetError(file, f"'{key}' must be a JSON object keyed by '{{scene file}}_{{category}}'")
    return {**shared, **own}


def resolve_split_file(path: str | os.PathLike[str]) -> Path:
    """A split file path as given, or for a split directory `DIR/{split}` its `DIR/{split}/{split}.json.gz`."""
    p = Path(path)
    if p.is_dir():
        return p / f"{p.name}.json.gz"
    return p


def content_files(split_file: Path, split_data: dict[str, Any]) -> list[Path]:
    """The per-scene content files of a split, from its content_scenes_path (default habitat-lab's layout)."""
    pattern = str(split_data.get("content_scenes_path", "{data_path}/content/{scene}.json.gz"))
    data_path = str(split_file.parent)
    prefix = pattern.split("{scene}")[0].format(data_path=data_path)
    suffix = pattern.split("{scene}")[1] if "{scene}" in pattern else ".json.gz"
    directory = Path(prefix)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.name.endswith(suffix))


def split_sources(
    path: str | os.PathLike[str],
) -> tuple[Path, dict[str, Any], list[tuple[Path, dict[str, Any]]]]:
    """(split file, its data, [(file, data)] for the split file and every content file), each file's top level
    checked to be an object with an `episodes` list; raises when the split has no episodes anywhere."""
    split_file = resolve_split_file(path)
    split_data = _episodes_file(split_file, read_json(split_file))
    content = content_files(split_file, split_data)
    if not content and not split_data["episodes"]:
        raise DatasetError(
            split_file, "no episodes: the split file has none and there is no content/{scene}.json.gz"
        )
    sources = [(split_file, split_data)] + [(p, _episodes_file(p, read_json(p))) for p in content]
    return split_file, split_data, sources


def _episodes_file(file: Path, data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise DatasetError(file, "top level must be a JSON object with 'episodes'")
    if "episodes" not in data:
        raise DatasetError(file, "has no 'episodes' list")
    if not isinstance(data["episodes"], list):
        raise DatasetError(file, "'episodes' must be a list")
    return data
