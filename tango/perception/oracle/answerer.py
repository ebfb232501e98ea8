"""ORACLE question answering over the objects the agent has observed (never the rest of the scene).

Answers come from the annotations of observed objects: counts, presence, rooms, attributes, what stands next
to an object, what lies on a surface, and which observed object a use or need refers to (MiniLM similarity).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import numpy as np

from tango.agent.api import GoalImage
from tango.agent.observation import Observation
from tango.perception.config import AnswererConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.oracle.observed import ObservedObject, ObservedObjects
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import visible_objects
from tango.perception.registry import register
from tango.perception.text_similarity import TextEmbedder
from tango.sim.scene import SceneObject

UNSEEN = "unknown"
NEAR_M = 1.5
ON_TOP_TOLERANCE_M = 0.05
MIN_TOPIC_SIMILARITY = 0.25
ATTRIBUTE_WORDS = {
    "color": ("color", "colour"),
    "material": ("material", "made of"),
    "size": ("size", "how big", "how large"),
    "state": ("state", "on or off"),
}


def words_of(text: str) -> str:
    """Lower-case words separated by single spaces, padded with spaces for whole-word search."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def mentioned(text: str, names: list[str]) -> str | None:
    """The longest of `names` that `text` names (singular or plural), or None."""
    padded = words_of(text)
    named = [n for n in names if any(f" {n}{end} " in padded for end in ("", "s", "es"))]
    return max(named, key=len) if named else None


def most_common(values: list[str]) -> str:
    """The most frequent value (first seen wins ties)."""
    return Counter(values).most_common(1)[0][0]


def footprint_gap(a: SceneObject, b: SceneObject) -> float:
    """Distance between two bounding boxes in the floor plane (0 when they overlap)."""
    dx = max(a.bbox_min[0] - b.bbox_max[0], b.bbox_min[0] - a.bbox_max[0], 0.0)
    dz = max(a.bbox_min[2] - b.bbox_max[2], b.bbox_min[2] - a.bbox_max[2], 0.0)
    return float(np.hypot(dx, dz))


def rests_on(item: SceneObject, surface: SceneObject) -> bool:
    """Whether `item` stands on top of `surface` (its bottom at the surface's top, footprints overlapping)."""
    return (
        abs(item.bbox_min[1] - surface.bbox_max[1]) <= ON_TOP_TOLERANCE_M
        and footprint_gap(item, surface) == 0.0
        and item.id != surface.id
    )


def place_of(obj: SceneObject) -> str:
    """ "the couch in the living room"."""
    room = f" in the {normalise_label(obj.room)}" if obj.room else ""
    return f"the {normalise_label(obj.category)}{room}"


def listing(categories: list[str]) -> str:
    """ "a vase and a lamp"."""
    return " and ".join(f"a {c}" for c in sorted(set(categories)))


class OracleAnswerer:
    """ORACLE answerer: each call first records what the current frame shows, then answers from the memory."""

    def __init__(
        self,
        scene: OracleScene,
        min_pixels: int,
        memory: ObservedObjects | None = None,
        text: TextEmbedder | None = None,
    ) -> None:
        self.scene = scene
        self.min_pixels = min_pixels
        self.memory = memory if memory is not None else ObservedObjects()
        self.text = text

    def observe(self, obs: Observation) -> None:
        """Record what is visible in `obs`."""
        self.memory.record(visible_objects(obs, self.scene, self.min_pixels))

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """A short answer from the observed objects; "unknown" when nothing observed fits. With `image` of the
        frame's size, what the image shows is observed instead of the current frame."""
        if image is not None and image.pixels.shape == (obs.height, obs.width, 3):
            obs = replace(obs, rgb=image.pixels, semantic=GroundTruth.semantic(image.semantic, "the image"))
        self.observe(obs)
        q = words_of(question)
        rooms = sorted({normalise_label(o.object.room) for o in self.memory.objects() if o.object.room})
        room = mentioned(q, rooms)
        category = mentioned(q, self.memory.categories())
        seen = self._in_room(self.memory.of_category(category), room) if category else []
        if " how many " in q:
            return str(len(seen))
        if re.match(r" (is|are) there | (do|did|can) you see ", q):
            return "yes" if seen else "no"
        if re.match(r" (where (could|can|would|should) i|what (here|in this home)) ", q):
            return self._by_topic(question)
        coloured = re.match(r" what is the ([a-z]+) object next to ", q)
        if coloured:
            return self._coloured_neighbour(coloured.group(1), q, room)
        if not seen:
            return self._by_topic(question) if category is None else UNSEEN
        target = seen[0].object
        if re.search(r" is .* clear ", q):
            items = [o.object for o in self.memory.objects() if rests_on(o.object, target)]
            return (
                f"No, there is {listing([normalise_label(i.category) for i in items])} on it"
                if items
                else ("Yes, nothing is on it")
            )
        if " next to " in q or " near " in q or " beside " in q:
            return self._nearest_neighbour(target)
        if " where " in q or " which room " in q or " what room " in q:
            places = [normalise_label(o.object.room) for o in seen if o.object.room]
            return f"in the {most_common(places)}" if places else UNSEEN
        for attribute, cue_words in ATTRIBUTE_WORDS.items():
            if any(f" {word} " in q for word in cue_words):
                values = [o.object.attributes[attribute] for o in seen if attribute in o.object.attributes]
                return most_common(values) if values else UNSEEN
        return place_of(target)

    def _in_room(self, entries: list[ObservedObject], room: str | None) -> list[ObservedObject]:
        if room is None:
            return entries
        return [e for e in entries if e.object.room and normalise_label(e.object.room) == room]

    def _nearest_neighbour(self, target: SceneObject) -> str:
        others = [
            o.object for o in self.memory.objects()
            if o.object.category != target.category and o.object.room == target.room
        ]  # fmt: skip
        near = [o for o in others if footprint_gap(o, target) <= NEAR_M]
        if not near:
            return UNSEEN
        return f"a {normalise_label(min(near, key=lambda o: footprint_gap(o, target)).category)}"

    def _coloured_neighbour(self, color: str, q: str, room: str | None) -> str:
        anchor_name = mentioned(q.split(" next to ", 1)[1], self.memory.categories())
        if anchor_name is None:
            return UNSEEN
        anchors = [a.object for a in self._in_room(self.memory.of_category(anchor_name), room)]
        candidates = [
            o.object for o in self._in_room(self.memory.objects(), room)
            if o.object.attributes.get("color") == color and normalise_label(o.object.category) != anchor_name
        ]  # fmt: skip
        scored = [(min(footprint_gap(c, a) for a in anchors), c.id, c) for c in candidates if anchors]
        near = [item for item in scored if item[0] <= NEAR_M]
        return f"a {normalise_label(min(near)[2].category)}" if near else UNSEEN

    def _by_topic(self, question: str) -> str:
        """The observed object whose category best fits a question about a use or a need (MiniLM)."""
        categories = self.memory.categories()
        if self.text is None or not categories:
            return UNSEEN
        similarity = self.text.similarity([question], categories)[0]
        best = int(np.argmax(similarity))
        if similarity[best] < MIN_TOPIC_SIMILARITY:
            return UNSEEN
        return place_of(self.memory.of_category(categories[best])[0].object)


@register("answerer", "oracle", oracle=True)
def oracle_answerer(config: AnswererConfig, ctx: OracleContext) -> OracleAnswerer:
    truth = ctx.ground_truth
    return OracleAnswerer(truth.scene, truth.min_pixels, truth.observed, ctx.models.text(config.text_model))
