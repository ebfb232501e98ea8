"""UrbanGround task files (`<build>/task/<id>.json`): every field of their harness's task types, read strictly.

A file holds one task object, optionally wrapped as {"task": {...}}. Points are GeoPoints
{lat, lon, height, yaw, label}; the editor writes 0,0 placeholders for fields a type does not use, so only the
fields of the task's kind are read and checked. A malformed file raises TaskFileError naming the file, the
field and the reason. Fields of our own (tango's stand-in tasks; absent from published files and optional):
`deadline` ("HH:MM") on a schedule stop and `placeCandidates` (the ground-truth places of a place search).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.urban.kinds import Kind, UnknownKind, kind_of


class TaskFileError(ValueError):
    """A task file that cannot be read as an UrbanGround task (the message names file, field and reason)."""


@dataclass(frozen=True)
class GeoPoint:
    """A WGS84 point with the editor's height (metres), yaw (degrees clockwise from north) and label."""

    lat: float
    lon: float
    height: float = 0.0
    yaw: float = 0.0
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"lat": self.lat, "lon": self.lon, "height": self.height, "yaw": self.yaw, "label": self.label}

    def describe(self) -> str:
        """The point as UrbanGround's task text prints it: `label (lat,lon,height m, yaw N°)`."""
        text = f"{self.lat:.6f},{self.lon:.6f},{self.height:.1f}m, yaw {self.yaw:.0f}\u00b0"
        return f"{self.label} ({text})" if self.label else text


@dataclass(frozen=True)
class Zone:
    """A road closure: an open polyline of (lat, lon) vertices; crossing any edge of it is forbidden."""

    label: str
    vertices: tuple[tuple[float, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "vertices": [{"lat": a, "lon": b} for a, b in self.vertices]}


@dataclass(frozen=True)
class ScheduleStop:
    """One appointment of a schedule task, in visiting order; `deadline` is "HH:MM" when the file gives one."""

    target: GeoPoint
    deadline: str | None = None


@dataclass(frozen=True)
class RouteTarget:
    """One destination of a multi-point task (any order): the point, its kind, POI category and note."""

    point: GeoPoint
    kind: str = ""
    poi_category: str = ""
    note: str = ""


@dataclass
class UrbanTask:
    """One task as read from its file; `start` is the point its kind starts from (qaStartPoint, exploreStart...)."""

    id: str
    type: int
    kind: Kind
    description: str
    start: GeoPoint
    end: GeoPoint | None = None
    qa_options: tuple[str, ...] = ()
    qa_answer_index: int | None = None
    zones: tuple[Zone, ...] = ()
    schedule: tuple[ScheduleStop, ...] = ()
    targets: tuple[RouteTarget, ...] = ()
    place_candidates: tuple[GeoPoint, ...] = ()
    poi_category: str = ""
    source_task_id: str = ""
    closure_delay_minutes: float | None = None
    explore_duration_minutes: float | None = None
    path: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    generated_variant: bool = False  # made by urban.variants=all from the source task in `path`

    @property
    def answer_letter(self) -> str | None:
        return None if self.qa_answer_index is None else "ABCD"[self.qa_answer_index]


class _Reader:
    """Field access with errors that name the file and the field."""

    def __init__(self, payload: dict[str, Any], where: str) -> None:
        self.payload = payload
        self.where = where

    def fail(self, name: str, reason: str) -> TaskFileError:
        return TaskFileError(f"{self.where}: field {name!r}: {reason}")

    def require(self, name: str) -> Any:
        if name not in self.payload:
            raise TaskFileError(f"{self.where}: missing field {name!r}")
        return self.payload[name]

    def number(self, value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self.fail(name, f"expected a number, got {type(value).__name__}")
        try:
            number = float(value)
        except ValueError:
            raise self.fail(name, f"expected a number, got {value!r}") from None
        if not math.isfinite(number):
            raise self.fail(name, f"expected a finite number, got {value!r}")
        return number

    def point(self, value: Any, name: str, placeholder_ok: bool = False) -> GeoPoint:
        if not isinstance(value, dict):
            raise self.fail(name, f"expected a GeoPoint object, got {type(value).__name__}")
        for key in ("lat", "lon"):
            if key not in value:
                raise self.fail(name, f"GeoPoint without {key!r}")
        lat, lon = self.number(value["lat"], f"{name}.lat"), self.number(value["lon"], f"{name}.lon")
        if not placeholder_ok and lat == 0.0 and lon == 0.0:
            raise self.fail(name, "is the editor's 0,0 placeholder, not a point")
        if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
            raise self.fail(name, f"({lat}, {lon}) is not a WGS84 coordinate")
        return GeoPoint(
            lat,
            lon,
            self.number(value.get("height", 0.0) or 0.0, f"{name}.height"),
            self.number(value.get("yaw", 0.0) or 0.0, f"{name}.yaw"),
            str(value.get("label") or ""),
        )

    def items(self, name: str, required: bool = True) -> list[Any]:
        value = self.require(name) if required else self.payload.get(name) or []
        if not isinstance(value, list):
            raise self.fail(name, f"expected a list, got {type(value).__name__}")
        return value


def _zones(reader: _Reader) -> tuple[Zone, ...]:
    zones = []
    for index, zone in enumerate(reader.items("restrictedZones")):
        name = f"restrictedZones[{index}]"
        if not isinstance(zone, dict):
            raise reader.fail(name, "expected an object with 'vertices'")
        vertices = zone.get("vertices")
        if not isinstance(vertices, list) or len(vertices) < 2:
            raise reader.fail(f"{name}.vertices", "a closure polyline needs at least two vertices")
        points = [reader.point(v, f"{name}.vertices[{i}]") for i, v in enumerate(vertices)]
        zones.append(
            Zone(str(zone.get("label") or f"closure_{index + 1}"), tuple((p.lat, p.lon) for p in points))
        )
    return tuple(zones)


def _qa(reader: _Reader) -> tuple[tuple[str, ...], int]:
    options = reader.items("qaOptions")
    if len(options) != 4:
        raise reader.fail("qaOptions", f"expected four options, got {len(options)}")
    texts = []
    for index, option in enumerate(options):
        text = str(option.get("text", "") if isinstance(option, dict) else option).strip()
        if not text:
            raise reader.fail(f"qaOptions[{index}]", "option without text")
        texts.append(text)
    answer = reader.require("qaAnswerIndex")
    if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < 4:
        raise reader.fail("qaAnswerIndex", f"expected an integer 0-3, got {answer!r}")
    return tuple(texts), answer


def _schedule(reader: _Reader) -> tuple[ScheduleStop, ...]:
    stops = []
    for index, stop in enumerate(reader.items("schedule")):
        name = f"schedule[{index}]"
        if not isinstance(stop, dict) or "target" not in stop:
            raise reader.fail(name, "expected an object with a 'target' GeoPoint")
        deadline = stop.get("deadline")
        if deadline is not None and not _is_clock(str(deadline)):
            raise reader.fail(f"{name}.deadline", f"expected 'HH:MM', got {deadline!r}")
        stops.append(ScheduleStop(reader.point(stop["target"], f"{name}.target"), deadline))
    if not stops:
        raise reader.fail("schedule", "a schedule task needs at least one stop")
    return tuple(stops)


def _targets(reader: _Reader) -> tuple[RouteTarget, ...]:
    targets = []
    for index, entry in enumerate(reader.items("multiRouteTargets")):
        name = f"multiRouteTargets[{index}]"
        if not isinstance(entry, dict) or "point" not in entry:
            raise reader.fail(name, "expected an object with a 'point' GeoPoint")
        targets.append(
            RouteTarget(
                reader.point(entry["point"], f"{name}.point"),
                str(entry.get("kind") or ""),
                str(entry.get("poiCategory") or ""),
                str(entry.get("note") or ""),
            )
        )
    if not targets:
        raise reader.fail("multiRouteTargets", "a multi-point task needs at least one target")
    return tuple(targets)


def _is_clock(text: str) -> bool:
    parts = text.split(":")
    return len(parts) == 2 and all(p.isdigit() for p in parts) and int(parts[0]) < 24 and int(parts[1]) < 60


def _task_type(reader: _Reader) -> int:
    """The numeric type as their loader reads it (`int(task["type"])`): an integer, or a string or float
    holding one."""
    value = reader.require("type")
    if not isinstance(value, bool):
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value.strip())
    raise reader.fail("type", f"expected an integer task type, got {value!r}")


def _optional_number(reader: _Reader, name: str) -> float | None:
    value = reader.payload.get(name)
    return None if value is None else reader.number(value, name)


def parse_task(payload: Any, where: str) -> UrbanTask:
    """An UrbanTask from a decoded task file (`where` names it in errors)."""
    if isinstance(payload, dict) and isinstance(payload.get("task"), dict):
        payload = payload["task"]
    if not isinstance(payload, dict):
        raise TaskFileError(f"{where}: expected a JSON object (a task), got {type(payload).__name__}")
    reader = _Reader(payload, where)
    task_id = str(reader.require("id")).strip()
    if not task_id:
        raise reader.fail("id", "empty task id")
    raw_type = _task_type(reader)
    kind = kind_of(task_id, raw_type)  # UnknownKind: a type their registry has no evaluator for
    description = payload.get("description")
    if description is not None and not isinstance(description, str):
        raise reader.fail("description", "expected a string")
    description = (description or "").strip()
    if not description and (kind.family != "nav" or kind.prefix in ("IN", "II")):
        raise reader.fail("description", f"a {kind.name} task needs a description")
    task = UrbanTask(
        id=task_id,
        type=raw_type,
        kind=kind,
        description=description,
        start=reader.point(reader.require(kind.start_field), kind.start_field),
        poi_category=str(payload.get("poiCategory") or ""),
        source_task_id=str(payload.get("sourceTaskId") or ""),
        closure_delay_minutes=_optional_number(reader, "closureDelayMinutes"),
        explore_duration_minutes=_optional_number(reader, "exploreDurationMinutes"),
        path=where,
        raw=payload,
    )
    if kind.family == "qa":
        task.qa_options, task.qa_answer_index = _qa(reader)
    elif kind.family == "nav":
        task.end = reader.point(reader.require("endPoint"), "endPoint")
    elif kind.family == "schedule":
        task.schedule = _schedule(reader)
    elif kind.family == "multipoint":
        task.targets = _targets(reader)
    elif kind.family == "place_search":
        candidates = reader.items("placeCandidates", required=False)
        task.place_candidates = tuple(
            reader.point(c, f"placeCandidates[{i}]") for i, c in enumerate(candidates)
        )
    if kind.closures != "none":
        task.zones = _zones(reader)
    return task


def load_task_file(path: str | Path) -> UrbanTask:
    """Read and check one task file; TaskFileError (file, field, reason) when it is not a valid task."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TaskFileError(f"{path}: cannot read ({error.strerror or error})") from None
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        raise TaskFileError(
            f"{path}: not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    return parse_task(payload, str(path))


@dataclass(frozen=True)
class SkippedTask:
    """A task file their registry routes to no evaluator: skipped, as their harness does, and listed."""

    id: str
    path: str
    reason: str


def load_task_dir(folder: str | Path) -> tuple[list[UrbanTask], list[SkippedTask]]:
    """Every `*.json` task of a folder, sorted by file name, and the files skipped because their type has no
    evaluator; the first malformed file raises TaskFileError."""
    folder = Path(folder)
    if not folder.is_dir():
        raise TaskFileError(f"{folder}: no such task folder")
    tasks, skipped = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            tasks.append(load_task_file(path))
        except UnknownKind as error:
            skipped.append(SkippedTask(path.stem, str(path), str(error)))
    return tasks, skipped
