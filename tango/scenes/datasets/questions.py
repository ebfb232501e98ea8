"""OpenEQA-style questions in the seven published categories, each answered from the scene annotation.

Every generator below only asks what the annotation settles (the category, colour, material, room, what
stands next to or on an object) and only about objects the wording singles out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from tango.scenes.datasets.facts import Neighbours, footprint_gap, material_adjective, readable, room_name
from tango.sim.scene import SceneAnnotations, SceneObject

SUPPORT_TOLERANCE_M = 0.06
TIE_MARGIN_M = 0.25
SURFACES = ("table", "desk", "counter", "coffee table", "nightstand", "tv stand", "cabinet", "bed")
USES = {
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
KNOWLEDGE = {
    "refrigerator": "Which appliance here would keep milk from going sour?",
    "microwave": "Which appliance here heats food using electromagnetic waves?",
    "oven": "Where would I roast a chicken in this home?",
    "plant": "What in this home needs sunlight and water to grow?",
    "clock": "What here would tell me if I am late for an appointment?",
    "washing machine": "Which appliance here spins while it cleans?",
    "bathtub": "What could I fill with warm water to soak in?",
    "laptop": "What here could I use to send an email?",
    "tv": "What here could I use to watch a football match?",
    "bookshelf": "Where in this home would a dictionary most likely be kept?",
}


@dataclass(frozen=True)
class Question:
    """One question with its reference answer from the annotation (and accepted alternatives)."""

    question: str
    answer: str
    category: str
    extra_answers: tuple[str, ...] = ()


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


def object_recognition(scene: _Scene) -> Iterator[Question]:
    """'What is the red object next to the bed in the bedroom?' -> the category."""
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
            yield Question(
                f"What is the {color} object next to the {readable(anchor)} in the {room_name(obj)}?",
                f"a {readable(obj.category)}",
                "object recognition",
            )


def attribute_recognition(scene: _Scene) -> Iterator[Question]:
    """'What color is the couch in the living room?' / 'What is the table in the kitchen made of?'"""
    for obj in scene.annotations.objects:
        if not obj.room or not scene.unique_in_room(obj):
            continue
        if "color" in obj.attributes:
            yield Question(f"What color is {_where(obj)}?", obj.attributes["color"], "attribute recognition")
        if "material" in obj.attributes:
            material = obj.attributes["material"]
            adjective = material_adjective(material)
            extra = (adjective,) if adjective != material else ()
            yield Question(
                f"What material is {_where(obj)} made of?", material, "attribute recognition", extra
            )


def object_state_recognition(scene: _Scene) -> Iterator[Question]:
    """A 'state' attribute when the annotation has one, else whether a surface is clear or holds something."""
    for obj in scene.annotations.objects:
        if not obj.room or not scene.unique_in_room(obj):
            continue
        if "state" in obj.attributes:
            yield Question(
                f"What state is {_where(obj)} in?", obj.attributes["state"], "object state recognition"
            )
        elif obj.category in SURFACES:
            items = sorted({readable(o.category) for o in scene.items_on(obj)})
            if items:
                answer = "No, there is " + " and ".join(f"a {i}" for i in items) + " on it"
            else:
                answer = "Yes, nothing is on it"
            yield Question(f"Is {_where(obj)} clear?", answer, "object state recognition")


def object_localization(scene: _Scene) -> Iterator[Question]:
    """'Where is the bathtub?' for categories with one instance -> its room (and its nearest neighbour)."""
    for obj in scene.annotations.objects:
        if not obj.room or len(scene.instances(obj.category)) != 1:
            continue
        near = scene.neighbours.of(obj)
        extra = (f"next to the {readable(near[0].category)}",) if near else ()
        yield Question(
            f"Where is the {readable(obj.category)}?",
            f"in the {room_name(obj)}",
            "object localization",
            extra,
        )


def spatial_understanding(scene: _Scene) -> Iterator[Question]:
    """'What is next to the bed in the bedroom?' -> the nearest other object (near-ties as extra answers)."""
    for obj in scene.annotations.objects:
        near = scene.neighbours.of(obj)
        if not obj.room or not near or not scene.unique_in_room(obj):
            continue
        nearest_gap = footprint_gap(obj, near[0])
        others = tuple(
            dict.fromkeys(
                readable(o.category)
                for o in near[1:]
                if o.category != near[0].category and footprint_gap(obj, o) <= nearest_gap + TIE_MARGIN_M
            )
        )
        yield Question(
            f"What is next to {_where(obj)}?",
            f"a {readable(near[0].category)}",
            "spatial understanding",
            others,
        )


def functional_reasoning(scene: _Scene) -> Iterator[Question]:
    """'Where could I take a nap?' -> the objects of the category that serves it, with their rooms."""
    for category, use in USES.items():
        found = [o for o in scene.instances(category) if o.room]
        if found:
            places = tuple(dict.fromkeys(_where(o) for o in found))
            yield Question(f"Where could I {use}?", places[0], "functional reasoning", places[1:])


def world_knowledge(scene: _Scene) -> Iterator[Question]:
    """Questions that need common knowledge to map to an object of the scene, answered with it and its room."""
    for category, question in KNOWLEDGE.items():
        found = [o for o in scene.instances(category) if o.room]
        if found:
            places = tuple(dict.fromkeys(_where(o) for o in found))
            yield Question(question, places[0], "world knowledge", places[1:])


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
        candidates = list({q.question: q for q in generator(scene)}.values())
        order = rng.permutation(len(candidates))
        chosen.extend(candidates[int(i)] for i in order[:per_category])
    return chosen
