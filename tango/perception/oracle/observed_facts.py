"""ORACLE facts about the observed objects: their names, rooms and attribute values, and the scene graph of
them (tango.perception.scene_graph, whose relations are its own geometry). Everything is derived from the
annotations of objects the agent has seen (tango.perception.oracle.observed), never from the rest of the scene.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from tango.perception.detections import normalise_label
from tango.perception.oracle.mentions import Mention, find_mentions
from tango.perception.oracle.observed import ObservedObject, ObservedObjects
from tango.perception.scene_graph import GraphObject, SceneGraph
from tango.types.scene import SceneObject

CATEGORY, ROOM = "category", "room"
VOCABULARIES_KEPT = 64
"""Vocabularies remembered by `ObservedFacts.vocabulary` (a description is matched every step while what the
agent has observed changes only now and then)."""
_vocabularies: dict[tuple[int, ...], tuple[tuple[SceneObject, ...], dict[str, set[str]]]] = {}


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
        """Observed names by kind: categories, room types and each attribute's values (shared: do not modify).

        The same objects in the same order give the same dict, built once: it is kept with the objects, whose
        ids are its key (kept alive, no other object can take them), and its sets iterate in the order a new
        build's would, which find_mentions' ties follow."""
        key = tuple(map(id, self.objects))
        kept = _vocabularies.get(key)
        if kept is None:
            kept = (tuple(self.objects), self._vocabulary())
            if len(_vocabularies) >= VOCABULARIES_KEPT:
                _vocabularies.clear()
            _vocabularies[key] = kept
        return kept[1]

    def _vocabulary(self) -> dict[str, set[str]]:
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

    def graph(self) -> SceneGraph:
        """The observed objects as a scene graph: category, room, annotated centre and size, attributes and
        how often each was seen (its relations are the graph's own)."""
        return SceneGraph([graph_object(entry) for entry in self.entries])


def graph_object(entry: ObservedObject) -> GraphObject:
    """One observed annotated object as a scene-graph node."""
    obj = entry.object
    low, high = np.asarray(obj.bbox_min, dtype=float), np.asarray(obj.bbox_max, dtype=float)
    center, size = (low + high) / 2, high - low
    return GraphObject(
        key=str(obj.id),
        category=category_of(obj),
        room=room_of(obj),
        room_key="" if obj.room_id is None else str(obj.room_id),
        center=(float(center[0]), float(center[1]), float(center[2])),
        size=(float(size[0]), float(size[1]), float(size[2])),
        attributes={k: normalise_label(v) for k, v in sorted(obj.attributes.items())},
        sightings=entry.times_seen,
    )
