"""Procedural apartments: a seeded floor plan furnished room by room, written as GLB + annotation JSON.

The output follows docs/architecture.md (format tango-scene/1): each object is one GLB node `obj_{id}`,
walls and floors are other nodes, y is up and units are metres.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import trimesh

from tango.scenes.clutter import ClutterConfig, add_clutter, add_lookalikes
from tango.scenes.furnish import RoomFurnisher
from tango.scenes.layout import FloorPlan, LayoutConfig, generate_floor_plan
from tango.scenes.parts import box, merge
from tango.scenes.placed import FurnishConfig, PlacedObject
from tango.scenes.recipes import FILLERS, RECIPES, add_filler

SCENE_FORMAT = "tango-scene/1"

FLOOR_COLORS: dict[str, tuple[int, int, int]] = {
    "kitchen": (198, 204, 208),
    "living room": (168, 124, 82),
    "bedroom": (156, 136, 172),
    "bathroom": (160, 204, 214),
    "office": (118, 140, 106),
    "dining room": (196, 156, 104),
    "hallway": (148, 144, 136),
}
WALL_COLOR = (232, 226, 212)
# Paint on the inside of each room's walls, so first-person views tell rooms apart.
WALL_PAINT: dict[str, tuple[int, int, int]] = {
    "kitchen": (236, 230, 196),
    "living room": (234, 218, 196),
    "bedroom": (208, 218, 236),
    "bathroom": (212, 236, 236),
    "office": (222, 234, 212),
    "dining room": (238, 218, 208),
    "hallway": (224, 224, 222),
}
PAINT_DEPTH = 0.004
FLOOR_THICKNESS = 0.05


@dataclass(frozen=True)
class ApartmentConfig:
    """Knobs of the apartment generator (metres); the defaults give 4-8 rooms and 20+ objects (the homes of
    synthetic-v2), `HM3D_SIZED` the homes of synthetic-v3."""

    min_rooms: int = 4
    max_rooms: int = 8
    room_area: float = 16.0
    min_room_side: float = 2.8
    door_width: float = 1.0
    wall_thickness: float = 0.1
    wall_height: float = 2.5
    min_objects: int = 20
    agent_radius: float = 0.18
    max_attempts: int = 20
    corridor_width: float = 0.0
    clutter: ClutterConfig = field(default_factory=ClutterConfig)

    def __post_init__(self) -> None:
        if not 1 <= self.min_rooms <= self.max_rooms:
            raise ValueError(
                f"ApartmentConfig: need 1 <= min_rooms <= max_rooms, got {self.min_rooms}, {self.max_rooms}"
            )
        if self.door_width < 2 * self.agent_radius + 0.4:
            raise ValueError(
                f"ApartmentConfig: door_width {self.door_width} m is too narrow for agent radius {self.agent_radius} m"
            )


@dataclass
class Apartment:
    """A generated apartment: floor plan and placed objects (ids 1..N), ready to write."""

    seed: int
    plan: FloorPlan
    objects: list[PlacedObject]
    floor_y: float = 0.0

    def annotations(self, scene_id: str) -> dict[str, Any]:
        """The annotation document (tango-scene/1) for this apartment."""
        rooms = [
            {
                "id": r.id,
                "type": r.type,
                "min": [round(r.rect.x0, 4), round(r.rect.z0, 4)],
                "max": [round(r.rect.x1, 4), round(r.rect.z1, 4)],
            }
            for r in self.plan.rooms
        ]
        objects = []
        for o in self.objects:
            attributes: dict[str, str] = {"color": o.color, "size": o.size}
            if o.material is not None:
                attributes["material"] = o.material
            lo, hi = o.mesh.bounds
            objects.append(
                {
                    "id": o.id,
                    "category": o.category,
                    "room_id": o.room_id,
                    "room": self.plan.rooms[o.room_id].type,
                    "attributes": attributes,
                    "bbox": {
                        "min": [round(float(v), 4) for v in lo],
                        "max": [round(float(v), 4) for v in hi],
                    },
                }
            )
        return {
            "format": SCENE_FORMAT,
            "scene_id": scene_id,
            "rooms": rooms,
            "objects": objects,
            "floor_y": self.floor_y,
        }

    def scene(self) -> trimesh.Scene:
        """The trimesh scene: one node per object (`obj_{id}`), plus `floor_{room}` and `walls` nodes."""
        scene = trimesh.Scene()
        y = self.floor_y
        for room in self.plan.rooms:
            r = room.rect
            floor = box(
                r.width,
                FLOOR_THICKNESS,
                r.depth,
                ((r.x0 + r.x1) / 2, y - FLOOR_THICKNESS / 2, (r.z0 + r.z1) / 2),
                FLOOR_COLORS[room.type],
            )
            scene.add_geometry(merge([floor]), node_name=f"floor_{room.id}", geom_name=f"floor_{room.id}")
        wall_parts = [
            box(
                w.rect.width,
                w.height,
                w.rect.depth,
                ((w.rect.x0 + w.rect.x1) / 2, y + w.height / 2, (w.rect.z0 + w.rect.z1) / 2),
                WALL_COLOR,
            )
            for w in self.plan.walls
        ]
        for room in self.plan.rooms:
            for f in self.plan.wall_faces(room.id, PAINT_DEPTH):
                h = self.plan.wall_height
                centre = ((f.x0 + f.x1) / 2, y + h / 2, (f.z0 + f.z1) / 2)
                wall_parts.append(box(f.width, h, f.depth, centre, WALL_PAINT[room.type]))
        scene.add_geometry(merge(wall_parts), node_name="walls", geom_name="walls")
        for o in self.objects:
            scene.add_geometry(o.mesh, node_name=f"obj_{o.id}", geom_name=f"obj_{o.id}")
        return scene

    def write(self, out_dir: Path | str, scene_id: str) -> tuple[Path, Path]:
        """Write `{scene_id}.glb` and `{scene_id}.annotations.json` atomically; returns both paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        glb_path = out / f"{scene_id}.glb"
        json_path = out / f"{scene_id}.annotations.json"
        glb = self.scene().export(file_type="glb")
        _atomic_write(glb_path, glb)
        _atomic_write(json_path, (json.dumps(self.annotations(scene_id), indent=1) + "\n").encode())
        return glb_path, json_path


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _furnish(plan: FloorPlan, rng: np.random.Generator, config: ApartmentConfig) -> list[PlacedObject]:
    furnish_config = FurnishConfig(agent_radius=config.agent_radius)
    furnishers: list[RoomFurnisher] = []
    next_id = 1
    for room in plan.rooms:
        f = RoomFurnisher(plan, room, rng, next_id, furnish_config)
        RECIPES[room.type](f)
        add_lookalikes(f, config.clutter)
        add_clutter(f, config.clutter)
        furnishers.append(f)
        next_id = f.next_id
    objects = [o for f in furnishers for o in f.objects]
    short = config.min_objects - len(objects)
    for _round in range(3):
        for f in furnishers:
            if short <= 0:
                break
            fillers = FILLERS[f.room.type]
            if add_filler(f, fillers[int(rng.integers(len(fillers)))]) is not None:
                short -= 1
    objects = [o for f in furnishers for o in f.objects]
    for new_id, obj in enumerate(objects, start=1):
        obj.id = new_id
    return objects


def generate_apartment(seed: int, config: ApartmentConfig | None = None) -> Apartment:
    """A furnished apartment, identical for the same seed and config."""
    config = config or ApartmentConfig()
    layout = LayoutConfig(
        config.min_rooms,
        config.max_rooms,
        config.room_area,
        config.min_room_side,
        config.door_width,
        config.wall_thickness,
        config.wall_height,
        config.corridor_width,
    )
    most = 0
    for attempt in range(config.max_attempts):
        rng = np.random.default_rng([seed, attempt])
        plan = generate_floor_plan(rng, layout)
        objects = _furnish(plan, rng, config)
        apartment = Apartment(seed, plan, objects)
        if len(objects) >= config.min_objects:
            return apartment
        most = max(most, len(objects))
    raise ValueError(
        f"seed {seed}: no apartment with {config.min_objects} objects in {config.max_attempts} attempts (best {most})"
    )


HM3D_SIZED = ApartmentConfig(
    min_rooms=6,
    max_rooms=12,
    room_area=20.0,
    min_objects=40,
    corridor_width=1.6,
    clutter=ClutterConfig(lookalike_probability=0.6, min_clutter=1, max_clutter=3),
)
"""Homes the size of HM3D's (6-12 rooms counting a corridor, about 100-300 m2), with a corridor, look-alike
distractors beside target objects and clutter (synthetic-v3)."""
