"""The observed vocabulary is built once per set of observed objects: a repeat returns the kept one, and any
other objects (more of them, or other objects with the same ids) build their own; normalised labels are
remembered without changing them."""

from __future__ import annotations

import numpy as np
import pytest

from tango.perception.detections import normalise_label
from tango.perception.oracle import observed_facts
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.observed_facts import ObservedFacts
from tango.perception.oracle.visible import VisibleObject
from tango.types.scene import SceneObject


def _seen(*objects: SceneObject) -> list[VisibleObject]:
    return [
        VisibleObject(obj, 10, np.zeros(4), (slice(0, 1), slice(0, 1)), np.ones((1, 1), bool), np.zeros(3))
        for obj in objects
    ]


def _object(object_id: int, category: str, **attributes: str) -> SceneObject:
    return SceneObject(object_id, category, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 1, "Living_Room", attributes)


def _fresh(facts: ObservedFacts) -> dict[str, set[str]]:
    return facts._vocabulary()


def test_the_same_objects_share_one_vocabulary_and_others_build_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(observed_facts, "_vocabularies", {})
    memory = ObservedObjects()
    memory.record(_seen(_object(1, "Coffee_Table", color="Red"), _object(2, "sofa")))
    first = ObservedFacts(memory).vocabulary()
    assert ObservedFacts(memory).vocabulary() is first
    assert first == {"category": {"coffee table", "sofa"}, "room": {"living room"}, "color": {"red"}}
    memory.record(_seen(_object(3, "lamp", material="Wood")))
    grown = ObservedFacts(memory).vocabulary()
    assert grown is not first and grown == _fresh(ObservedFacts(memory))
    assert grown["category"] == {"coffee table", "sofa", "lamp"} and grown["material"] == {"wood"}
    other_scene = ObservedObjects()  # the same ids, other objects
    other_scene.record(_seen(_object(1, "bed"), _object(2, "sink")))
    assert ObservedFacts(other_scene).vocabulary()["category"] == {"bed", "sink"}


def test_remembered_labels_are_the_normalised_ones() -> None:
    rng = np.random.default_rng(0)
    letters = np.array(list("aB_ cD\tE"))
    for _ in range(300):
        label = "".join(rng.choice(letters, int(rng.integers(0, 12))))
        expected = " ".join(label.replace("_", " ").lower().split())
        assert normalise_label(label) == expected and normalise_label(label) == expected
