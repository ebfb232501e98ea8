"""OpenEQA-style questions in the seven published categories, each answered from the scene annotation.

Every generator below only asks what the annotation settles (the category, colour, material, room, what
stands next to or on an object) and only about objects the facts single out. A question is its structured
facts (what is asked, never the answer; `QuestionFacts`), the reference answer, and the ids of the objects the
answer rests on; its wording is chosen later from a paraphrase pool (wording.py), so the text is not a fixed
template that could be inverted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.scenes.datasets.facts import Neighbours, footprint_gap, material_adjective, readable, room_name
from tango.scenes.datasets.wording import KNOWLEDGE
from tango.types.scene import SceneAnnotations, SceneObject

SUPPORT_TOLERANCE_M = 0.06
TIE_MARGIN_M = 0.25
SURFACES = ("table", "desk", "counter", "coffee table", "nightstand", "tv stand", "cabinet", "bed")
USES = {  # category -> what it is for, as the question says it
    "bed": "take a nap",
    "oven": "bake a cake",
    "refrigerator": "keep drinks cold",
    "sink": "wash my hands",
    "bathtub": "take a long bath",
    "shower": "take a quick shower",
    "tv": "watch the news",
    "washing machine": "wash my clothes",
    "bookshelf": "find something to read",
    "microwave": "warm up leftovers quickly",
    "mirror": "check how my hair looks",
    "clock": "check what time it is",
    "toilet": "use the toilet",
    "desk": "work at a desk",
    "trash can": "throw away some rubbish",
    "couch": "lie down and watch TV",
}


@dataclass(frozen=True)
class Question:
    """One question: the OpenEQA category, what it asks (`facts`, JSON-able, never the answer), the reference
    answer from the annotation with accepted alternatives, and the ids of the objects the answer rests on."""

    category: str
    facts: dict[str, Any]
    answer: str
    extra_answers: tuple[str, ...] = ()
    evidence: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Scene:
    annotations: SceneAnnotations
    neighbours: Neighbours

    def instances(self, category: str) -> list[SceneObject]:
        return [o for o in self.annotations.objects if o.category == category]

    def unique_in_room(self, obj: SceneObject) -> bool:
        """No other instance of the category stands in a room of the same type."""
        return all(room_name(o) != room_name(obj) for o in self.instances(obj.category) if o.id != obj.id)

    def items_on(self, surface: SceneObject) -> list[SceneObject]:
        return [o for o in self.annotations.objects if o.id != surface.id and _rests_on(o, surface)]


def _rests_on(item: SceneObject, surface: SceneObject) -> bool:
    overlap_x = min(item.bbox_max[0], surface.bbox_max[0]) - max(item.bbox_min[0], surface.bbox_min[0])
    overlap_z = min(item.bbox_max[2], surface.bbox_max[2]) - max(item.bbox_min[2], surface.bbox_min[2])
    return (
        overlap_x > 0 and overlap_z > 0 and abs(item.bbox_min[1] - surface.bbox_max[1]) <= SUPPORT_TOLERANCE_M
    )


def _where(obj: SceneObject) -> str:
    return f"the {readable(obj.category)} in the {room_name(obj)}"


def _target(obj: SceneObject) -> dict[str, Any]:
    """How a question names an object: its category and room type (facts, not words)."""
    return {"category": readable(obj.category), "room": room_name(obj)}


def object_recognition(scene: _Scene) -> Iterator[Question]:
    """The {color} object next to the {anchor} in the {room} -> its category."""
    for obj in scene.annotations.objects:
        color, near = obj.attributes.get("color"), scene.neighbours.of(obj)
        if not color or not near or not obj.room:
            continue
        anchor = near[0].category
        rivals = [
            o
            for o in scene.annotations.objects
            if o.id != obj.id
            and o.attributes.get("color") == color
            and room_name(o) == room_name(obj)
            and anchor in scene.neighbours.categories(o)
        ]
        if not rivals:
            facts = {"kind": "identify", "color": color, "anchor": readable(anchor), "room": room_name(obj)}
            yield Question(
                "object recognition", facts, f"a {readable(obj.category)}", (), (obj.id, near[0].id)
            )


def attribute_recognition(scene: _Scene) -> Iterator[Question]:
    """The colour or material of an object its category and room single out."""
    for obj in scene.annotations.objects:
        if not obj.room or not scene.unique_in_room(obj):
            continue
        for attribute in ("color", "material"):
            if attribute not in obj.attributes:
                continue
            value = obj.attributes[attribute]
            adjective = material_adjective(value) if attribute == "material" else value
            facts = {"kind": "attribute", "attribute": attribute, "target": _target(obj)}
            extra = (adjective,) if adjective != value else ()
            yield Question("attribute recognition", facts, value, extra, (obj.id,))


def object_state_recognition(scene: _Scene) -> Iterator[Question]:
    """A 'state' attribute when the annotation has one, else whether a surface is clear or holds something."""
    for obj in scene.annotations.objects:
        if not obj.room or not scene.unique_in_room(obj):
            continue
        if "state" in obj.attributes:
            facts = {"kind": "attribute", "attribute": "state", "target": _target(obj)}
            yield Question("object state recognition", facts, obj.attributes["state"], (), (obj.id,))
        elif obj.category in SURFACES:
            on_it = scene.items_on(obj)
            items = sorted({readable(o.category) for o in on_it})
            if items:
                answer = "No, there is " + " and ".join(f"a {i}" for i in items) + " on it"
            else:
                answer = "Yes, nothing is on it"
            facts = {"kind": "clear", "target": _target(obj)}
            yield Question("object state recognition", facts, answer, (), (obj.id, *(o.id for o in on_it)))


def object_localization(scene: _Scene) -> Iterator[Question]:
    """Where a category with one instance is -> its room (and its nearest neighbour)."""
    for obj in scene.annotations.objects:
        if not obj.room or len(scene.instances(obj.category)) != 1:
            continue
        near = scene.neighbours.of(obj)
        extra = (f"next to the {readable(near[0].category)}",) if near else ()
        facts = {"kind": "locate", "target": {"category": readable(obj.category)}}
        yield Question("object localization", facts, f"in the {room_name(obj)}", extra, (obj.id,))


def spatial_understanding(scene: _Scene) -> Iterator[Question]:
    """What stands next to an object -> the nearest other object (near-ties as extra answers)."""
    for obj in scene.annotations.objects:
        near = scene.neighbours.of(obj)
        if not obj.room or not near or not scene.unique_in_room(obj):
            continue
        nearest_gap = footprint_gap(obj, near[0])
        ties = [
            o
            for o in near[1:]
            if o.category != near[0].category and footprint_gap(obj, o) <= nearest_gap + TIE_MARGIN_M
        ]
        others = tuple(dict.fromkeys(readable(o.category) for o in ties))
        facts = {"kind": "neighbour", "target": _target(obj)}
        evidence = (obj.id, near[0].id, *(o.id for o in ties))
        yield Question("spatial understanding", facts, f"a {readable(near[0].category)}", others, evidence)


def _places(scene: _Scene, category: str) -> tuple[list[SceneObject], tuple[str, ...]]:
    found = [o for o in scene.instances(category) if o.room]
    return found, tuple(dict.fromkeys(_where(o) for o in found))


def functional_reasoning(scene: _Scene) -> Iterator[Question]:
    """Where could I do what a category is for -> the objects of that category, with their rooms."""
    for category, use in USES.items():
        found, places = _places(scene, category)
        if found:
            facts = {"kind": "use", "use": use, "category": readable(category)}
            yield Question("functional reasoning", facts, places[0], places[1:], tuple(o.id for o in found))


def world_knowledge(scene: _Scene) -> Iterator[Question]:
    """Questions that need common knowledge to map to an object of the scene, answered with it and its room."""
    for category in KNOWLEDGE:
        found, places = _places(scene, category)
        if found:
            facts = {"kind": "knowledge", "category": readable(category)}
            yield Question("world knowledge", facts, places[0], places[1:], tuple(o.id for o in found))


GENERATORS: tuple[Callable[[_Scene], Iterator[Question]], ...] = (
    object_recognition,
    attribute_recognition,
    object_state_recognition,
    object_localization,
    spatial_understanding,
    functional_reasoning,
    world_knowledge,
)


def scene_questions(
    annotations: SceneAnnotations, neighbours: Neighbours, rng: np.random.Generator, per_category: int
) -> list[Question]:
    """Up to `per_category` distinct questions of each of the seven categories, chosen at random."""
    scene = _Scene(annotations, neighbours)
    chosen: list[Question] = []
    for generator in GENERATORS:
        candidates = list({repr(sorted(q.facts.items())): q for q in generator(scene)}.values())
        order = rng.permutation(len(candidates))
        chosen.extend(candidates[int(i)] for i in order[:per_category])
    return chosen
