"""Description goals and OpenEQA questions on hand-built annotations: uniqueness, answers from the annotation,
and wording from the paraphrase pools (the held-out pool never repeats a training sentence)."""

from __future__ import annotations

import numpy as np

from tango.scenes.datasets import wording
from tango.scenes.datasets.descriptions import unique_facts
from tango.scenes.datasets.facts import find_neighbours
from tango.scenes.datasets.questions import scene_questions
from tango.types.scene import Room, SceneAnnotations, SceneObject


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


def _describe(obj: SceneObject, scene: SceneAnnotations, pool: str = "train", seed: int = 0) -> str | None:
    facts = unique_facts(obj, scene, find_neighbours(scene))
    return None if facts is None else facts.text(pool, np.random.default_rng(seed))


def test_description_adds_facts_until_unique() -> None:
    chairs = [
        _obj(1, "chair", 1.0, 1.0, 0, "red", "small"),
        _obj(2, "chair", 3.0, 3.0, 0, "red", "large"),
        _obj(3, "chair", 5.0, 1.0, 1, "red", "small"),
    ]
    table = _obj(4, "table", 1.0, 1.8, 0, "brown")
    scene = _scene([*chairs, table])
    near = find_neighbours(scene)
    assert _describe(chairs[0], scene) == "the red chair in the kitchen, next to the table"
    second = _describe(chairs[1], scene)
    assert second is not None and "large" in second and "kitchen" in second
    facts = unique_facts(chairs[1], scene, near)
    assert facts is not None and not facts.fits(chairs[0], near) and not facts.fits(chairs[2], near)
    assert facts.as_dict() == {
        "category": "chair",
        "attributes": {"color": "red", "size": "large"},
        "room": "kitchen",
        "near": [],
    }


def test_held_out_descriptions_state_the_same_facts_in_other_words() -> None:
    chairs = [_obj(1, "chair", 1.0, 1.0, 0, "red", "small"), _obj(2, "chair", 3.0, 3.0, 0, "red", "large")]
    scene = _scene([*chairs, _obj(4, "table", 1.0, 1.8, 0, "brown")])
    train = {_describe(chairs[0], scene, "train", seed) for seed in range(20)}
    heldout = {_describe(chairs[0], scene, "heldout", seed) for seed in range(20)}
    assert train == {"the red chair in the kitchen, next to the table"}
    assert len(heldout) >= 3 and not heldout & train
    assert all(t is not None and all(w in t for w in ("red", "chair", "kitchen", "table")) for t in heldout)


def test_indistinguishable_instances_get_no_description() -> None:
    twins = [_obj(1, "chair", 5.0, 1.0, 1, "red"), _obj(2, "chair", 9.0, 1.0, 2, "red")]
    scene = _scene(twins)
    assert _describe(twins[0], scene) is None
    assert _describe(twins[1], scene) is None


def _questions(objects: list[SceneObject]) -> list:  # type: ignore[type-arg]
    scene = _scene(objects)
    return scene_questions(scene, find_neighbours(scene), np.random.default_rng(0), per_category=50)


OBJECTS = [
    _obj(1, "bed", 5.0, 1.0, 1, "blue"),
    _obj(2, "lamp", 5.0, 2.0, 1, "yellow"),
    _obj(3, "table", 1.0, 1.0, 0, "brown"),
    SceneObject(5, "vase", (0.9, 0.8, 0.9), (1.1, 1.1, 1.1), 0, "kitchen", {"color": "green"}),
    _obj(4, "refrigerator", 2.0, 1.0, 0, "white"),
    _obj(6, "chair", 1.0, 2.0, 0, "red"),
]


def test_questions_cover_seven_categories_with_answers_from_the_annotation() -> None:
    questions = _questions(OBJECTS)
    rng = np.random.default_rng(0)
    by_text = {wording.question_text(q.facts, "train", rng): q for q in questions}
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
    assert by_text["What color is the bed in the bedroom?"].evidence == (1,)
    assert by_text["Where is the refrigerator?"].answer == "in the kitchen"
    clear = by_text["Is the table in the kitchen clear?"]
    assert clear.answer == "No, there is a vase on it" and set(clear.evidence) == {3, 5}
    assert by_text["Where could I take a nap?"].answer == "the bed in the bedroom"
    assert by_text["What is next to the bed in the bedroom?"].answer == "a lamp"
    recognition = by_text["What is the yellow object next to the bed in the bedroom?"]
    assert recognition.answer == "a lamp"
    assert recognition.facts == {"kind": "identify", "color": "yellow", "anchor": "bed", "room": "bedroom"}


def test_question_facts_hold_what_is_asked_never_the_answer() -> None:
    for q in _questions(OBJECTS):
        stated = {str(v) for v in q.facts.values() if isinstance(v, str)}
        stated |= {str(v) for v in (q.facts.get("target") or {}).values()}
        answer_words = set(q.answer.lower().replace(",", "").split()) - {
            "a",
            "the",
            "in",
            "no",
            "yes",
            "on",
            "it",
        }
        if q.category in ("attribute recognition", "object recognition"):
            assert not answer_words & stated, (q.facts, q.answer)


def test_held_out_questions_never_use_a_training_sentence() -> None:
    for q in _questions(OBJECTS):
        train = {wording.question_text(q.facts, "train", np.random.default_rng(s)) for s in range(12)}
        heldout = {wording.question_text(q.facts, "heldout", np.random.default_rng(s)) for s in range(12)}
        assert len(heldout) >= 2 and not train & heldout, q.facts
        assert all("{" not in text and text[0].isupper() for text in train | heldout)
