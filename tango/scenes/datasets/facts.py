"""Scene facts the dataset writers phrase: readable names, and which objects stand near which.

Everything here comes from the annotation file (tango.types.scene.SceneAnnotations), never from rendering.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.types.scene import SceneAnnotations, SceneObject

NEAR_RADIUS_M = 1.5
MATERIAL_ADJECTIVES = {"wood": "wooden", "wool": "woollen", "gold": "golden"}


def readable(name: str) -> str:
    """A label as words: "washing_machine" -> "washing machine"."""
    return name.replace("_", " ").strip()


def material_adjective(material: str) -> str:
    """The adjective form of a material name ("wood" -> "wooden")."""
    return MATERIAL_ADJECTIVES.get(material, readable(material))


def room_name(obj: SceneObject) -> str | None:
    """The object's room type as words, or None when the annotation has none."""
    return readable(obj.room) if obj.room else None


def footprint_gap(a: SceneObject, b: SceneObject) -> float:
    """Distance in the xz plane between two bounding boxes (0 when they overlap)."""
    dx = max(a.bbox_min[0] - b.bbox_max[0], b.bbox_min[0] - a.bbox_max[0], 0.0)
    dz = max(a.bbox_min[2] - b.bbox_max[2], b.bbox_min[2] - a.bbox_max[2], 0.0)
    return float(np.hypot(dx, dz))


@dataclass(frozen=True)
class Neighbours:
    """For each object id, the other objects of the same room within NEAR_RADIUS_M, nearest first."""

    near: dict[int, tuple[SceneObject, ...]]

    def of(self, obj: SceneObject) -> tuple[SceneObject, ...]:
        """The objects near `obj`, nearest first."""
        return self.near.get(obj.id, ())

    def categories(self, obj: SceneObject) -> set[str]:
        """The categories of the objects near `obj`."""
        return {o.category for o in self.of(obj)}


def find_neighbours(annotations: SceneAnnotations, radius: float = NEAR_RADIUS_M) -> Neighbours:
    """Neighbours of every object: same room (when known), bounding boxes within `radius` in the xz plane."""
    near: dict[int, tuple[SceneObject, ...]] = {}
    for obj in annotations.objects:
        others = [
            (footprint_gap(obj, o), o.id, o)
            for o in annotations.objects
            if o.id != obj.id and o.category != obj.category and o.room_id == obj.room_id
        ]
        near[obj.id] = tuple(o for gap, _, o in sorted(others, key=lambda t: (t[0], t[1])) if gap <= radius)
    return Neighbours(near)
