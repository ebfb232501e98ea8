"""Description goals and OpenEQA questions on hand-built annotations: uniqueness and answers from facts."""

from __future__ import annotations

import numpy as np

from tango.scenes.datasets.descriptions import describe, unique_facts
from tango.scenes.datasets.facts import find_neighbours
from tango.scenes.datasets.questions import scene_questions
from tango.sim.scene import Room, SceneAnnotations, SceneObject


def _obj(
    object_id: int,
    category: str,
    x: float,
    z: float,
    room: int,
    color: str,
    size: str = "medium",
    y0: float = 0.0,
) -> SceneObject:
    rooms = {0: "kitchen", 1: "bedroom", 2: "bedroom"}
    return SceneObject(
        id=object_id,
        category=category,
        bbox_min=(x - 0.25, y0, z - 0.25),
        bbox_max=(x + 0.25, y0 + 0.8, z + 0.25),
        room_id=room,
        room=rooms[room],
        attributes={"color": color, "size": size, "material": "wood"},
    )


def _scene(objects: list[SceneObject]) -> SceneAnnotations:
    rooms = (
        Room(0, "kitchen", (0.0, 0.0), (4.0, 4.0)),
        Room(1, "bedroom", (4.0, 0.0), (8.0, 4.0)),
        Room(2, "bedroom", (8.0, 0.0), (12.0, 4.0)),
    )
    return SceneAnnotations("hand", rooms, tuple(objects), 0.0)


def test_description_adds_facts_until_unique() -> None:
    chairs = [
        _obj(1, "chair", 1.0, 1.0, 0, "red", "small"),
        _obj(2, "chair", 3.0, 3.0, 0, "red", "large"),
        _obj(3, "chair", 5.0, 1.0, 1, "red", "small"),
    ]
    table = _obj(4, "table", 1.0, 1.8, 0, "brown")
    scene = _scene([*chairs, table])
    near = find_neighbours(scene)
    first = describe(chairs[0], scene, near)
    assert first == "the red chair in the kitchen, next to the table"
    second = describe(chairs[1], scene, near)
    assert second is not None and "large" in second and "kitchen" in second
    facts = unique_facts(chairs[1], scene, near)
    assert facts is not None and not facts.fits(chairs[0], near) and not facts.fits(chairs[2], near)


def test_indistinguishable_instances_get_no_description() -> None:
    twins = [_obj(1, "chair", 5.0, 1.0, 1, "red"), _obj(2, "chair", 9.0, 1.0, 2, "red")]
    scene = _scene(twins)
    near = find_neighbours(scene)
    assert describe(twins[0], scene, near) is None
    assert describe(twins[1], scene, near) is None


def test_questions_cover_seven_categories_with_answers_from_the_annotation() -> None:
    objects = [
        _obj(1, "bed", 5.0, 1.0, 1, "blue"),
        _obj(2, "lamp", 5.0, 2.0, 1, "yellow"),
        _obj(3, "table", 1.0, 1.0, 0, "brown"),
        SceneObject(5, "vase", (0.9, 0.8, 0.9), (1.1, 1.1, 1.1), 0, "kitchen", {"color": "green"}),
        _obj(4, "refrigerator", 2.0, 1.0, 0, "white"),
        _obj(6, "chair", 1.0, 2.0, 0, "red"),
    ]
    scene = _scene(objects)
    questions = scene_questions(scene, find_neighbours(scene), np.random.default_rng(0), per_category=50)
    by_text = {q.question: q for q in questions}
    assert {q.category for q in questions} == {
        "object recognition",
        "attribute recognition",
        "object state recognition",
        "object localization",
        "spatial understanding",
        "functional reasoning",
        "world knowledge",
    }
    assert by_text["What color is the bed in the bedroom?"].answer == "blue"
    assert by_text["Where is the refrigerator?"].answer == "in the kitchen"
    assert by_text["Is the table in the kitchen clear?"].answer == "No, there is a vase on it"
    assert by_text["Where could I take a nap?"].answer == "the bed in the bedroom"
    assert by_text["What is next to the bed in the bedroom?"].answer == "a lamp"
    recognition = [q for q in questions if q.category == "object recognition"]
    assert any(
        q.question == "What is the yellow object next to the bed in the bedroom?" and q.answer == "a lamp"
        for q in recognition
    )
