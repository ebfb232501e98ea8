"""ORACLE description goals (GOAT "lang_desc"): what a free-text description states, grounded in the observed
objects' facts, and how well each observed candidate fits it.

A description states the facts it names of the observed vocabulary (tango.perception.oracle.mentions): the
described category (the first observed category it names), attribute values ("red", "wooden"), a room type,
and other observed categories, which the described object must stand near (a loose reading of "near": an
observed object of that category in the same room with its centre within NEAR_CENTRES_M in the floor plane).
A candidate scores the MiniLM similarity between the description and its own facts plus one per stated fact
it satisfies. No sentence pattern of any dataset is parsed. The CLIP matcher of real perception is in tango.perception.clip_description.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.perception.detections import normalise_label
from tango.perception.oracle.mentions import Mention
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.observed_facts import CATEGORY, ROOM, ObservedFacts, category_of, room_of
from tango.perception.oracle.scene import OracleScene
from tango.perception.text_similarity import TextEmbedder
from tango.types.scene import SceneObject

NEAR_CENTRES_M = 3.0
"""Objects of a room whose centres are at most this far apart in the floor plane are near each other (rooms
are a few metres across: "near" in a description is read loosely; ranking by similarity decides between
candidates that all satisfy it)."""


@dataclass(frozen=True)
class StatedFacts:
    """What a description states about its object, in observed names."""

    category: str
    attributes: dict[str, str]
    room: str
    near: tuple[str, ...]

    def count(self) -> int:
        """How many facts it states besides the category."""
        return len(self.attributes) + bool(self.room) + len(self.near)


def modified_noun(mentions: list[Mention], index: int) -> str:
    """The category an attribute value stands right before, through adjacent values ("red wooden chair"),
    as adjectives do; "" when it stands before none ("the chair made of wood")."""
    end = mentions[index].end
    for mention in mentions[index + 1 :]:
        if mention.start != end:
            return ""
        if mention.kind == CATEGORY:
            return mention.name
        if mention.kind == ROOM:
            return ""
        end = mention.end
    return ""


def stated_facts(description: str, facts: ObservedFacts, category: str = "") -> StatedFacts:
    """The facts `description` names; the described category is `category` when given, else the first
    observed category it names ("" when it names none). An attribute value is the described object's unless
    it stands right before another category ("near the brown table")."""
    mentions = facts.mentions(description)
    named = [m.name for m in mentions if m.kind == CATEGORY]
    target = normalise_label(category) if category else (named[0] if named else "")
    attributes: dict[str, str] = {}
    for index, mention in enumerate(mentions):
        if mention.kind not in (CATEGORY, ROOM) and modified_noun(mentions, index) in (target, ""):
            attributes[mention.kind] = mention.name
    return StatedFacts(
        target,
        attributes,
        next((m.name for m in mentions if m.kind == ROOM), ""),
        tuple(dict.fromkeys(name for name in named if name != target)),
    )


def object_text(obj: SceneObject) -> str:
    """ "red wood chair (kitchen)" from an annotation (attribute values in name order)."""
    values = [obj.attributes[k] for k in sorted(obj.attributes)]
    room = f" ({room_of(obj)})" if obj.room else ""
    return " ".join([*values, category_of(obj)]) + room


def satisfied(obj: SceneObject, stated: StatedFacts, facts: ObservedFacts) -> int:
    """How many stated facts (attribute values, room, nearby categories) the observed object satisfies."""
    count = sum(normalise_label(obj.attributes.get(k, "")) == v for k, v in stated.attributes.items())
    count += int(bool(stated.room) and room_of(obj) == stated.room)
    return count + sum(near(obj, category, facts) for category in stated.near)


def near(obj: SceneObject, category: str, facts: ObservedFacts) -> bool:
    """Whether an observed object of `category` stands in `obj`'s room within NEAR_CENTRES_M of it."""
    return any(
        other.room_id == obj.room_id
        and float(np.hypot(*(np.asarray(other.center) - np.asarray(obj.center))[[0, 2]])) <= NEAR_CENTRES_M
        for other in facts.of_category(category)
        if other.id != obj.id
    )


class OracleDescriptionScorer:
    """ORACLE: score observed candidates by the facts a description states and by MiniLM similarity."""

    def __init__(self, scene: OracleScene, memory: ObservedObjects, text: TextEmbedder) -> None:
        self.scene = scene
        self.memory = memory
        self.text = text

    def stated(self, description: str, category: str = "") -> StatedFacts:
        """What the description states, in the names observed so far (never the unobserved scene)."""
        return stated_facts(description, ObservedFacts(self.memory), category)

    def score_instances(self, description: str, category: str, instance_ids: list[int]) -> np.ndarray:
        """(N,) scores of observed instances (unobserved ids score -inf): similarity + satisfied facts."""
        facts = ObservedFacts(self.memory)
        stated = stated_facts(description, facts, category)
        observed = {obj.id: obj for obj in facts.objects}
        texts = [object_text(observed[i]) if i in observed else "" for i in instance_ids]
        similarity = self.text.similarity([description], texts)[0] if texts else np.zeros(0)
        scores = np.full(len(instance_ids), -np.inf)
        for k, object_id in enumerate(instance_ids):
            if object_id in observed:
                scores[k] = float(similarity[k]) + satisfied(observed[object_id], stated, facts)
        return scores
