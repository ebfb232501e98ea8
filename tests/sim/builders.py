"""Small trimesh scenes for the simulator tests: a walled room with a partition and a few annotated boxes."""

from __future__ import annotations

import gzip
import json
import struct
from pathlib import Path

import numpy as np
import trimesh
from PIL import Image

ROOM_SIZE_X, ROOM_SIZE_Z, WALL_HEIGHT = 8.0, 6.0, 2.5
# A partition along x = 0 from the south wall (z = +3) up to z = -1, leaving a 2 m gap at the north end.
PARTITION_END_Z = -1.0
OBJECTS = {
    1: ("chair", (-2.5, 0.0, 1.5), (0.5, 0.9, 0.5), (200, 40, 40, 255)),
    2: ("table", (2.5, 0.0, 1.5), (1.2, 0.75, 0.8), (40, 160, 40, 255)),
    3: ("plant", (3.3, 0.0, -2.3), (0.4, 1.2, 0.4), (30, 120, 200, 255)),
}


def _box(
    extents: tuple[float, float, float], center: tuple[float, float, float], color: tuple[int, ...]
) -> trimesh.Trimesh:
    box = trimesh.creation.box(extents)
    box.apply_translation(center)
    box.visual.face_colors = color
    return box


def room_scene() -> trimesh.Scene:
    """An 8 x 6 m room (floor at y = 0) split by a partition at x = 0 with a gap, plus objects obj_1..obj_3."""
    scene = trimesh.Scene()
    half_x, half_z = ROOM_SIZE_X / 2, ROOM_SIZE_Z / 2
    scene.add_geometry(
        _box((ROOM_SIZE_X, 0.1, ROOM_SIZE_Z), (0, -0.05, 0), (150, 140, 120, 255)), node_name="floor"
    )
    walls = {
        "wall_north": ((ROOM_SIZE_X, WALL_HEIGHT, 0.1), (0, WALL_HEIGHT / 2, -half_z - 0.05)),
        "wall_south": ((ROOM_SIZE_X, WALL_HEIGHT, 0.1), (0, WALL_HEIGHT / 2, half_z + 0.05)),
        "wall_west": ((0.1, WALL_HEIGHT, ROOM_SIZE_Z), (-half_x - 0.05, WALL_HEIGHT / 2, 0)),
        "wall_east": ((0.1, WALL_HEIGHT, ROOM_SIZE_Z), (half_x + 0.05, WALL_HEIGHT / 2, 0)),
        "partition": (
            (0.1, WALL_HEIGHT, half_z - PARTITION_END_Z),
            (0, WALL_HEIGHT / 2, (half_z + PARTITION_END_Z) / 2),
        ),
    }
    for name, (extents, center) in walls.items():
        scene.add_geometry(_box(extents, center, (220, 220, 210, 255)), node_name=name)
    for object_id, (_, base, extents, color) in OBJECTS.items():
        center = (base[0], base[1] + extents[1] / 2, base[2])
        scene.add_geometry(_box(extents, center, color), node_name=f"obj_{object_id}")
    return scene


def room_annotations(scene_id: str) -> dict:
    """The tango-scene/1 annotation of room_scene()."""
    objects = []
    for object_id, (category, base, extents, _) in OBJECTS.items():
        lo = np.array([base[0] - extents[0] / 2, base[1], base[2] - extents[2] / 2])
        hi = np.array([base[0] + extents[0] / 2, base[1] + extents[1], base[2] + extents[2] / 2])
        room_id = 0 if base[0] < 0 else 1
        objects.append(
            {
                "id": object_id,
                "category": category,
                "room_id": room_id,
                "room": ["bedroom", "kitchen"][room_id],
                "attributes": {"color": "red"},
                "bbox": {"min": lo.tolist(), "max": hi.tolist()},
            }
        )
    rooms = [
        {"id": 0, "type": "bedroom", "min": [-4.0, -3.0], "max": [0.0, 3.0]},
        {"id": 1, "type": "kitchen", "min": [0.0, -3.0], "max": [4.0, 3.0]},
    ]
    return {
        "format": "tango-scene/1",
        "scene_id": scene_id,
        "rooms": rooms,
        "objects": objects,
        "floor_y": 0.0,
    }


def write_room(directory: Path, scene_id: str = "room_000") -> Path:
    """Write room_scene() as `{scene_id}.glb` with its annotation JSON; return the GLB path."""
    directory.mkdir(parents=True, exist_ok=True)
    glb = directory / f"{scene_id}.glb"
    room_scene().export(str(glb))
    (directory / f"{scene_id}.annotations.json").write_text(json.dumps(room_annotations(scene_id)))
    return glb


def object_view_points(grid, obj: dict, max_distance: float = 1.0, stride: int = 3) -> list[np.ndarray]:
    """Navigable cell centres within max_distance (xz) of an annotation object's box, every stride-th cell."""
    lo, hi = np.array(obj["bbox"]["min"]), np.array(obj["bbox"]["max"])
    rows, cols = np.nonzero(grid.navigable)
    points = [grid.cell_center(r, c) for r, c in zip(rows[::stride], cols[::stride], strict=True)]
    near = []
    for point in points:
        dx = max(lo[0] - point[0], 0.0, point[0] - hi[0])
        dz = max(lo[2] - point[2], 0.0, point[2] - hi[2])
        if np.hypot(dx, dz) <= max_distance:
            near.append(point)
    return near


def write_objectnav_dataset(
    root: Path, scene_glb: Path, scenes_dir: Path, grid, starts: list[tuple[np.ndarray, float, str]]
) -> Path:
    """Write an ObjectNav-v1 split (`root/val/val.json.gz` + `content/{scene}.json.gz`) with one episode per
    (start position, start yaw, goal category); returns the split file."""
    scene_id = scene_glb.stem
    annotations = json.loads((scene_glb.parent / f"{scene_id}.annotations.json").read_text())
    categories = sorted({obj["category"] for obj in annotations["objects"]})
    goals_by_category: dict[str, list[dict]] = {}
    for obj in annotations["objects"]:
        lo, hi = np.array(obj["bbox"]["min"]), np.array(obj["bbox"]["max"])
        view_points = [
            {"agent_state": {"position": p.tolist(), "rotation": [0.0, 0.0, 0.0, 1.0]}, "iou": 0.5}
            for p in object_view_points(grid, obj)
        ]
        goals_by_category.setdefault(f"{scene_glb.name}_{obj['category']}", []).append(
            {
                "object_id": obj["id"],
                "object_name": f"{obj['category']}_{obj['id']}",
                "object_category": obj["category"],
                "position": ((lo + hi) / 2).tolist(),
                "view_points": view_points,
            }
        )
    episodes = []
    for index, (position, yaw, category) in enumerate(starts):
        goals = goals_by_category[f"{scene_glb.name}_{category}"]
        view_points = [np.array(v["agent_state"]["position"]) for g in goals for v in g["view_points"]]
        episodes.append(
            {
                "episode_id": str(index),
                "scene_id": str(scene_glb.relative_to(scenes_dir)),
                "start_position": [float(v) for v in position],
                "start_rotation": [0.0, float(np.sin(yaw / 2)), 0.0, float(np.cos(yaw / 2))],
                "object_category": category,
                "info": {"geodesic_distance": grid.geodesic_distance(position, view_points)},
                "goals": [],
            }
        )
    category_ids = {category: index for index, category in enumerate(categories)}
    split_dir = root / "val"
    (split_dir / "content").mkdir(parents=True, exist_ok=True)
    header = {
        "category_to_task_category_id": category_ids,
        "category_to_mp3d_category_id": category_ids,
        "episodes": [],
    }
    split_file = split_dir / "val.json.gz"
    split_file.write_bytes(gzip.compress(json.dumps(header).encode()))
    content = {"goals_by_category": goals_by_category, "episodes": episodes}
    (split_dir / "content" / f"{scene_id}.json.gz").write_bytes(gzip.compress(json.dumps(content).encode()))
    return split_file


def textured_quad_scene() -> trimesh.Scene:
    """A 2 x 2 m quad facing +z at z = -2 with an 8 x 8 texture: red, green (top row), blue, yellow (bottom)."""
    image = np.zeros((8, 8, 3), np.uint8)
    image[:4, :4], image[:4, 4:], image[4:, :4], image[4:, 4:] = (
        (255, 0, 0),
        (0, 255, 0),
        (0, 0, 255),
        (255, 255, 0),
    )
    vertices = np.array([[-1, -1, -2], [1, -1, -2], [1, 1, -2], [-1, 1, -2]], dtype=float)
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    material = trimesh.visual.material.PBRMaterial(baseColorTexture=Image.fromarray(image))
    quad = trimesh.Trimesh(
        vertices,
        [[0, 1, 2], [0, 2, 3]],
        visual=trimesh.visual.TextureVisuals(uv=uv, material=material),
        process=False,
    )
    scene = trimesh.Scene()
    scene.add_geometry(quad, node_name="quad")
    return scene


def write_basis_like_glb(source: Path, target: Path) -> None:
    """Rewrite a textured GLB the way HM3D's `.basis.glb` files look to trimesh: the texture is a
    KHR_texture_basisu image (here undecodable bytes) that it cannot read."""
    data = source.read_bytes()
    magic, version, _ = struct.unpack("<III", data[:12])
    json_length, json_type = struct.unpack("<II", data[12:20])
    gltf = json.loads(data[20 : 20 + json_length])
    rest = data[20 + json_length :]
    bin_length, bin_type = struct.unpack("<II", rest[:8])
    blob = bytearray(rest[8 : 8 + bin_length])
    gltf["textures"] = [{"extensions": {"KHR_texture_basisu": {"source": 0}}}]
    gltf["images"][0]["mimeType"] = "image/ktx2"
    gltf["extensionsUsed"] = gltf["extensionsRequired"] = ["KHR_texture_basisu"]
    view = gltf["bufferViews"][gltf["images"][0]["bufferView"]]
    offset = view.get("byteOffset", 0)
    blob[offset : offset + view["byteLength"]] = b"\xab" * view["byteLength"]
    text = json.dumps(gltf).encode()
    text += b" " * ((4 - len(text) % 4) % 4)
    total = 12 + 8 + len(text) + 8 + len(blob)
    header = struct.pack("<III", magic, version, total) + struct.pack("<II", len(text), json_type)
    target.write_bytes(header + text + struct.pack("<II", len(blob), bin_type) + bytes(blob))
