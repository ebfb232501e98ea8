"""Scene annotations as plain data: rooms, annotated objects and the scene that holds them (`tango-scene/1`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Room:
    """An axis-aligned rectangular room in the xz plane."""

    id: int
    type: str
    min_xz: tuple[float, float]
    max_xz: tuple[float, float]

    def contains(self, point: np.ndarray) -> bool:
        """True when the world point (x, y, z) lies inside the room's xz rectangle."""
        x, z = float(point[0]), float(point[2])
        return self.min_xz[0] <= x <= self.max_xz[0] and self.min_xz[1] <= z <= self.max_xz[1]


@dataclass(frozen=True)
class SceneObject:
    """One annotated object instance; `id` is the value the semantic sensor reports for its pixels."""

    id: int
    category: str
    bbox_min: tuple[float, float, float]
    bbox_max: tuple[float, float, float]
    room_id: int | None = None
    room: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)

    @property
    def center(self) -> np.ndarray:
        """The centre of the axis-aligned bounding box (world, metres)."""
        return (
            np.asarray(self.bbox_min, dtype=np.float64) + np.asarray(self.bbox_max, dtype=np.float64)
        ) / 2.0


@dataclass(frozen=True)
class SceneAnnotations:
    """The contents of `{scene_id}.annotations.json`."""

    scene_id: str
    rooms: tuple[Room, ...]
    objects: tuple[SceneObject, ...]
    floor_y: float | None = None

    def object_by_id(self, object_id: int) -> SceneObject:
        """The object with this id; KeyError naming the scene when absent."""
        for obj in self.objects:
            if obj.id == object_id:
                return obj
        raise KeyError(f"scene {self.scene_id!r} has no object with id {object_id}")

    def room_at(self, point: np.ndarray) -> Room | None:
        """The room whose rectangle contains the point, or None outside every room."""
        for room in self.rooms:
            if room.contains(point):
                return room
        return None
