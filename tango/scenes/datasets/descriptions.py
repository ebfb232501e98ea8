"""GOAT description goals: a sentence from an instance's attributes, room and nearby objects that fits no
other instance of its category in the scene, worded from a paraphrase pool (wording.py); the facts it states
are kept apart (`DescriptionFacts.as_dict`) for evaluation code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.scenes.datasets.facts import Neighbours, material_adjective, readable, room_name
from tango.scenes.datasets.wording import description_text
from tango.types.scene import SceneAnnotations, SceneObject

ATTRIBUTE_ORDER = ("size", "color", "material")


@dataclass(frozen=True)
class DescriptionFacts:
    """The facts a description states: attribute values, the room type and nearby categories."""

    category: str
    attributes: dict[str, str] = field(default_factory=dict)
    room: str | None = None
    near: tuple[str, ...] = ()

    def fits(self, obj: SceneObject, neighbours: Neighbours) -> bool:
        """True when every stated fact is true of `obj`."""
        return (
            obj.category == self.category
            and all(obj.attributes.get(k) == v for k, v in self.attributes.items())
            and (self.room is None or room_name(obj) == self.room)
            and set(self.near) <= neighbours.categories(obj)
        )

    def text(self, pool: str, rng: np.random.Generator) -> str:
        """The description as an English noun phrase worded from the pool ("train" or "heldout")."""
        words = [
            material_adjective(self.attributes[k]) if k == "material" else readable(self.attributes[k])
            for k in ATTRIBUTE_ORDER
            if k in self.attributes
        ]
        thing = " ".join([*words, readable(self.category)])
        return description_text(thing, self.room, [readable(c) for c in self.near], pool, rng)

    def as_dict(self) -> dict[str, Any]:
        """The stated facts as JSON: category, attributes, room type and nearby categories."""
        return {
            "category": self.category,
            "attributes": dict(self.attributes),
            "room": self.room,
            "near": list(self.near),
        }


def _candidate_facts(obj: SceneObject, neighbours: Neighbours) -> list[DescriptionFacts]:
    """Ever richer fact sets: colour, room and nearest neighbour first, then size, material, a second neighbour."""
    near = [o.category for o in neighbours.of(obj)]
    near = list(dict.fromkeys(near))
    base_attrs = {k: obj.attributes[k] for k in ("color",) if k in obj.attributes}
    steps: list[DescriptionFacts] = [
        DescriptionFacts(obj.category, base_attrs, room_name(obj), tuple(near[:1]))
    ]
    attrs = dict(base_attrs)
    for key in ("size", "material"):
        if key in obj.attributes:
            attrs = {**attrs, key: obj.attributes[key]}
            steps.append(DescriptionFacts(obj.category, attrs, room_name(obj), tuple(near[:1])))
    if len(near) > 1:
        steps.append(DescriptionFacts(obj.category, attrs, room_name(obj), tuple(near[:2])))
    return steps


def unique_facts(
    obj: SceneObject, annotations: SceneAnnotations, neighbours: Neighbours
) -> DescriptionFacts | None:
    """The first candidate fact set that no other instance of the category satisfies, or None."""
    rivals = [o for o in annotations.objects if o.category == obj.category and o.id != obj.id]
    for facts in _candidate_facts(obj, neighbours):
        if not any(facts.fits(o, neighbours) for o in rivals):
            return facts
    return None
