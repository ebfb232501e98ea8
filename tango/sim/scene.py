"""Scene loading: a GLB mesh (via trimesh) plus the optional `{scene_id}.annotations.json` beside it.

The annotation format is `tango-scene/1` (docs/architecture.md). Loading is strict: a missing GLB, malformed
JSON, missing or unknown fields all raise `SceneError` naming the file and the problem.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import trimesh

from tango.types.scene import Room, SceneAnnotations, SceneObject

ANNOTATION_FORMAT = "tango-scene/1"
OBJECT_NODE_PATTERN = re.compile(r"^obj_(\d+)(?:$|[^0-9])")

_TOP_LEVEL_FIELDS = {"format", "scene_id", "rooms", "objects", "floor_y"}
_TOP_LEVEL_REQUIRED = {"format", "scene_id", "rooms", "objects"}
_ROOM_FIELDS = {"id", "type", "min", "max"}
_OBJECT_FIELDS = {"id", "category", "room_id", "room", "attributes", "bbox"}
_OBJECT_REQUIRED = {"id", "category", "bbox"}
_BBOX_FIELDS = {"min", "max"}


class SceneError(ValueError):
    """A scene or annotation file is missing or malformed; the message names the file and the problem."""


@dataclass
class LoadedScene:
    """A scene ready for rendering and navigation: the trimesh scene and its annotations (None for e.g. HM3D)."""

    scene_id: str
    glb_path: Path
    mesh: trimesh.Scene
    annotations: SceneAnnotations | None


def scene_id_from_path(glb_path: Path) -> str:
    """`apt_000.glb` -> `apt_000`; HM3D's `TEEsavR23oF.basis.glb` -> `TEEsavR23oF`."""
    name = glb_path.name
    for suffix in (".glb", ".gltf"):
        name = name.removesuffix(suffix)
    name = name.removesuffix(".basis")
    return name


def annotation_path_for(glb_path: Path) -> Path:
    """Where the annotation file of a GLB lives: `{dir}/{scene_id}.annotations.json`."""
    return glb_path.parent / f"{scene_id_from_path(glb_path)}.annotations.json"


def object_id_from_node_name(name: str) -> int:
    """Instance id carried by a node name `obj_{id}` (also `obj_{id}_part`), else 0 (background)."""
    match = OBJECT_NODE_PATTERN.match(name)
    return int(match.group(1)) if match else 0


def load_scene(glb_path: str | Path, require_annotations: bool = False) -> LoadedScene:
    """Load a GLB and, when present, its annotation JSON; raise SceneError naming the file on any problem."""
    path = Path(glb_path)
    if not path.is_file():
        raise SceneError(f"{path}: scene file not found")
    try:
        mesh = trimesh.load(str(path), force="scene", process=False)
    except Exception as exc:  # trimesh raises many exception types for unreadable files
        raise SceneError(f"{path}: cannot load the mesh: {exc}") from exc
    if not isinstance(mesh, trimesh.Scene) or len(mesh.geometry) == 0:
        raise SceneError(f"{path}: the file holds no triangle geometry")
    ann_path = annotation_path_for(path)
    annotations = None
    if ann_path.is_file():
        annotations = load_annotations(ann_path)
    elif require_annotations:
        raise SceneError(f"{ann_path}: annotation file not found (required for {path.name})")
    return LoadedScene(scene_id=scene_id_from_path(path), glb_path=path, mesh=mesh, annotations=annotations)


def load_annotations(path: str | Path) -> SceneAnnotations:
    """Parse and validate a `tango-scene/1` annotation file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise SceneError(f"{path}: annotation file not found") from exc
    except json.JSONDecodeError as exc:
        raise SceneError(f"{path}: malformed JSON: {exc}") from exc
    return parse_annotations(data, source=str(path))


def parse_annotations(data: Any, source: str) -> SceneAnnotations:
    """Validate the decoded annotation JSON; `source` names the file in error messages."""
    _check_fields(data, _TOP_LEVEL_FIELDS, _TOP_LEVEL_REQUIRED, source, "top level")
    if data["format"] != ANNOTATION_FORMAT:
        raise SceneError(f"{source}: format is {data['format']!r}, expected {ANNOTATION_FORMAT!r}")
    if not isinstance(data["rooms"], list) or not isinstance(data["objects"], list):
        raise SceneError(f"{source}: 'rooms' and 'objects' must be lists")
    rooms = tuple(_parse_room(room, source, index) for index, room in enumerate(data["rooms"]))
    objects = tuple(_parse_object(obj, source, index) for index, obj in enumerate(data["objects"]))
    ids = [obj.id for obj in objects]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SceneError(f"{source}: duplicate object ids {duplicates}")
    floor_y = data.get("floor_y")
    return SceneAnnotations(
        scene_id=str(data["scene_id"]),
        rooms=rooms,
        objects=objects,
        floor_y=None if floor_y is None else _number(floor_y, source, "floor_y"),
    )


def _check_fields(item: Any, allowed: set[str], required: set[str], source: str, where: str) -> None:
    if not isinstance(item, dict):
        raise SceneError(f"{source}: {where} must be a JSON object, got {type(item).__name__}")
    unknown = sorted(set(item) - allowed)
    if unknown:
        raise SceneError(f"{source}: unknown field(s) {unknown} at {where}")
    missing = sorted(required - set(item))
    if missing:
        raise SceneError(f"{source}: missing field(s) {missing} at {where}")


def _number(value: Any, source: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneError(f"{source}: {where} must be a number, got {value!r}")
    return float(value)


def _vector(value: Any, size: int, source: str, where: str) -> tuple[float, ...]:
    if not isinstance(value, list) or len(value) != size:
        raise SceneError(f"{source}: {where} must be a list of {size} numbers, got {value!r}")
    return tuple(_number(v, source, where) for v in value)


def _int_id(value: Any, source: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneError(f"{source}: {where} must be an integer, got {value!r}")
    return value


def _parse_room(room: Any, source: str, index: int) -> Room:
    where = f"rooms[{index}]"
    _check_fields(room, _ROOM_FIELDS, _ROOM_FIELDS, source, where)
    min_xz = _vector(room["min"], 2, source, f"{where}.min")
    max_xz = _vector(room["max"], 2, source, f"{where}.max")
    return Room(
        id=_int_id(room["id"], source, f"{where}.id"),
        type=str(room["type"]),
        min_xz=(min_xz[0], min_xz[1]),
        max_xz=(max_xz[0], max_xz[1]),
    )


def _parse_object(obj: Any, source: str, index: int) -> SceneObject:
    where = f"objects[{index}]"
    _check_fields(obj, _OBJECT_FIELDS, _OBJECT_REQUIRED, source, where)
    object_id = _int_id(obj["id"], source, f"{where}.id")
    if object_id <= 0:
        raise SceneError(f"{source}: {where}.id must be a positive integer, got {object_id}")
    _check_fields(obj["bbox"], _BBOX_FIELDS, _BBOX_FIELDS, source, f"{where}.bbox")
    bbox_min = _vector(obj["bbox"]["min"], 3, source, f"{where}.bbox.min")
    bbox_max = _vector(obj["bbox"]["max"], 3, source, f"{where}.bbox.max")
    attributes = obj.get("attributes", {})
    if not isinstance(attributes, dict):
        raise SceneError(f"{source}: {where}.attributes must be an object")
    room_id = obj.get("room_id")
    return SceneObject(
        id=object_id,
        category=str(obj["category"]),
        bbox_min=(bbox_min[0], bbox_min[1], bbox_min[2]),
        bbox_max=(bbox_max[0], bbox_max[1], bbox_max[2]),
        room_id=None if room_id is None else _int_id(room_id, source, f"{where}.room_id"),
        room=None if obj.get("room") is None else str(obj["room"]),
        attributes={str(k): str(v) for k, v in attributes.items()},
    )


@dataclass(frozen=True)
class PlacedMesh:
    """One geometry instance of a trimesh scene: its node, its instance id and the world-from-mesh transform."""

    node_name: str
    instance_id: int
    transform: np.ndarray
    mesh: trimesh.Trimesh


def placed_meshes(scene: trimesh.Scene) -> list[PlacedMesh]:
    """Every triangle mesh of the scene with its world transform; the instance id is that of the nearest
    ancestor node (or the node itself) named `obj_{id}`, else 0."""
    parents = scene.graph.transforms.parents
    placed = []
    for node in scene.graph.nodes_geometry:
        transform, geometry_name = scene.graph[node]
        mesh = scene.geometry[geometry_name]
        if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
            continue
        instance_id, current = 0, node
        while current is not None and instance_id == 0:
            instance_id = object_id_from_node_name(str(current))
            current = parents.get(current)
        placed.append(PlacedMesh(str(node), instance_id, np.asarray(transform, dtype=np.float64), mesh))
    return placed


def world_triangles(scene: trimesh.Scene) -> np.ndarray:
    """All triangles of the scene in world coordinates, shape (T, 3, 3) float64."""
    parts = []
    for item in placed_meshes(scene):
        vertices = trimesh.transform_points(np.asarray(item.mesh.vertices, dtype=np.float64), item.transform)
        parts.append(vertices[np.asarray(item.mesh.faces)])
    if not parts:
        return np.zeros((0, 3, 3))
    return np.concatenate(parts, axis=0)
