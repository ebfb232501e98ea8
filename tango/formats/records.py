"""Writing benchmark files: rounded numbers, the pose fields every episode format shares, and (gzip) JSON.

The generator (tango.scenes.datasets) builds each record with the writer of its format (tango.formats.*,
beside that format's reader); this module holds what the writers share. Poses are anything with a `position`
[x, y, z] and a `rotation` quaternion [x, y, z, w].
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

POSITION_DIGITS = 4
ROTATION_DIGITS = 6


class Pose(Protocol):
    """A position [x, y, z] and a rotation quaternion [x, y, z, w] (an episode start, a view point)."""

    @property
    def position(self) -> Iterable[float]: ...

    @property
    def rotation(self) -> Iterable[float]: ...


def round_list(values: Iterable[Any], digits: int = POSITION_DIGITS) -> list[float]:
    """Floats rounded for compact files."""
    return [round(float(v), digits) for v in values]


def start_json(start: Pose) -> dict[str, Any]:
    """The start_position / start_rotation fields of an episode."""
    return {
        "start_position": round_list(start.position),
        "start_rotation": round_list(start.rotation, ROTATION_DIGITS),
    }


def split_file_json() -> dict[str, Any]:
    """A split file `{split}.json.gz` whose episodes all live in its content/{scene}.json.gz files."""
    return {"episodes": []}


def write_json_gz(path: Path, data: Any) -> None:
    """Write gzip-compressed JSON, creating parent folders (encoded in one go: json.dumps uses the C encoder,
    json.dump to a stream does not). The gzip header holds no time or name, so the same data gives the same
    bytes and a regenerated dataset can be compared by hash."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))


def write_json(path: Path, data: Any) -> None:
    """Write indented JSON, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
