"""ORACLE facts about the observed objects: their names, rooms and attribute values, which observed objects
stand near one another and which rest on which. Everything is derived from the annotations of objects the
agent has seen (tango.perception.oracle.observed), never from the rest of the scene.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from tango.perception.detections import normalise_label
from tango.perception.oracle.mentions import Mention, find_mentions
from tango.perception.oracle.observed import ObservedObjects
from tango.sim.scene import SceneObject

NEAR_M = 1.5
"""Objects whose footprints are at most this far apart (same room) count as standing near each other."""
ON_TOP_TOLERANCE_M = 0.06
"""How far an object's bottom may be from a surface's top and still rest on it."""
CATEGORY, ROOM = "category", "room"


def footprint_gap(a: SceneObject, b: SceneObject) -> float:
    """Distance between two bounding boxes in the floor plane (0 when they overlap)."""
    dx = max(a.bbox_min[0] - b.bbox_max[0], b.bbox_min[0] - a.bbox_max[0], 0.0)
    dz = max(a.bbox_min[2] - b.bbox_max[2], b.bbox_min[2] - a.bbox_max[2], 0.0)
    return float(np.hypot(dx, dz))


def rests_on(item: SceneObject, surface: SceneObject) -> bool:
    """Whether `item` stands on `surface`: its bottom at the surface's top and the footprints overlapping."""
    overlap_x = min(item.bbox_max[0], surface.bbox_max[0]) - max(item.bbox_min[0], surface.bbox_min[0])
    overlap_z = min(item.bbox_max[2], surface.bbox_max[2]) - max(item.bbox_min[2], surface.bbox_min[2])
    return (
        item.id != surface.id
        and overlap_x > 0
        and overlap_z > 0
        and abs(item.bbox_min[1] - surface.bbox_max[1]) <= ON_TOP_TOLERANCE_M
    )


def category_of(obj: SceneObject) -> str:
    """The object's category as words ("tv_stand" -> "tv stand")."""
    return normalise_label(obj.category)


def room_of(obj: SceneObject) -> str:
    """The object's room type as words, "" when unannotated."""
    return normalise_label(obj.room) if obj.room else ""


def most_common(values: list[str]) -> str:
    """The most frequent value (the first seen wins ties)."""
    return Counter(values).most_common(1)[0][0]


class ObservedFacts:
    """A snapshot of what the agent has observed, queried as facts (built per question or description)."""

    def __init__(self, memory: ObservedObjects) -> None:
        self.entries = memory.objects()
        self.objects = [entry.object for entry in self.entries]

    def vocabulary(self) -> dict[str, set[str]]:
        """Observed names by kind: categories, room types and each attribute's values."""
        names: dict[str, set[str]] = {CATEGORY: set(), ROOM: set()}
        for obj in self.objects:
            names[CATEGORY].add(category_of(obj))
            if obj.room:
                names[ROOM].add(room_of(obj))
            for attribute, value in obj.attributes.items():
                names.setdefault(attribute, set()).add(normalise_label(value))
        return names

    def attribute_names(self) -> set[str]:
        """The attributes annotated on observed objects (color, material, ...)."""
        return {attribute for obj in self.objects for attribute in obj.attributes}

    def mentions(self, text: str) -> list[Mention]:
        """Observed categories, rooms and attribute values named in `text`, in reading order."""
        return find_mentions(text, self.vocabulary(), derived=frozenset(self.attribute_names()))

    def categories(self) -> list[str]:
        """Observed categories, sorted."""
        return sorted({category_of(obj) for obj in self.objects})

    def of_category(self, category: str, room: str = "") -> list[SceneObject]:
        """Observed objects of `category` (in a room of type `room` when given), most often seen first."""
        chosen = [
            entry
            for entry in self.entries
            if category_of(entry.object) == category and (not room or room_of(entry.object) == room)
        ]
        return [entry.object for entry in sorted(chosen, key=lambda e: -e.times_seen)]

    def neighbours(self, obj: SceneObject) -> list[SceneObject]:
        """Observed objects of other categories in the same room within NEAR_M of `obj`, nearest first."""
        near = [
            (footprint_gap(obj, other), other.id, other)
            for other in self.objects
            if other.category != obj.category and other.room_id == obj.room_id
        ]
        return [other for gap, _, other in sorted(near, key=lambda t: (t[0], t[1])) if gap <= NEAR_M]

    def resting_on(self, surface: SceneObject) -> list[SceneObject]:
        """Observed objects standing on `surface`."""
        return [obj for obj in self.objects if rests_on(obj, surface)]
