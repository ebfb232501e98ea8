"""ORACLE question answering from the structured facts of the objects the agent has observed.

A question is grounded in what was observed (which observed categories, room types and attribute values it
names: tango.perception.oracle.mentions), its intent is the nearest of a few prototype questions by MiniLM
similarity (tango.perception.oracle.intents), and the answer is composed from the facts of the observed
objects: counts, rooms, attribute values, nearby objects, what rests on what, and what a kind of object is
for (tango.perception.oracle.uses). Nothing here parses a dataset's sentence templates or returns its strings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from tango.agent.api import GoalImage
from tango.agent.observation import Observation
from tango.perception.config import AnswererConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.oracle.intents import (
    ROOM_PLACEHOLDER,
    SUBJECT_PLACEHOLDER,
    IntentClassifier,
    asks_yes_or_no,
    best_match,
)
from tango.perception.oracle.mentions import masked, words
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.observed_facts import (
    CATEGORY,
    NEAR_M,
    ROOM,
    ObservedFacts,
    category_of,
    footprint_gap,
    most_common,
    room_of,
)
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.uses import use_text
from tango.perception.oracle.visible import visible_objects
from tango.perception.registry import register
from tango.perception.text_similarity import TextEmbedder
from tango.sim.scene import SceneObject

UNSEEN = "unknown"
NOTHING_OBSERVED = {"count": "0", "exists": "no"}
"""Answers to count and existence questions about something never observed (other such questions: unknown)."""
MIN_USE_SIMILARITY = 0.2
"""Below this similarity between a need and the best observed object's use, nothing observed serves it."""


@dataclass(frozen=True)
class Query:
    """A question grounded in the observed facts: the categories it names (the first is its subject), the
    room type it names, the attribute values it names, and whether it asks for yes or no."""

    text: str
    categories: list[str]
    room: str
    values: dict[str, str]
    yes_or_no: bool

    @property
    def subject(self) -> str:
        """The category asked about: the first one named ("" when none is)."""
        return self.categories[0] if self.categories else ""


def a_list(objects: list[SceneObject]) -> str:
    """ "a lamp and a vase" (each category once)."""
    return " and ".join(f"a {c}" for c in sorted({category_of(o) for o in objects}))


def is_or_are(objects: list[SceneObject]) -> str:
    """The verb that agrees with `a_list(objects)`."""
    return "is" if len({category_of(o) for o in objects}) == 1 else "are"


def place(obj: SceneObject) -> str:
    """ "the couch in the living room" (or "the couch" when its room is unannotated)."""
    return f"the {category_of(obj)}" + (f" in the {room_of(obj)}" if obj.room else "")


class OracleAnswerer:
    """ORACLE answerer: each call first records what the current frame shows, then answers from the memory."""

    def __init__(
        self, scene: OracleScene, min_pixels: int, text: TextEmbedder, memory: ObservedObjects | None = None
    ) -> None:
        self.scene = scene
        self.min_pixels = min_pixels
        self.memory = memory if memory is not None else ObservedObjects()
        self.text = text
        self.intents = IntentClassifier(text)
        self.handlers: dict[str, Callable[[ObservedFacts, Query], str]] = {
            "count": self._count,
            "exists": self._exists,
            "identify": self._identify,
            "surface_empty": self._surface_empty,
            "surface_contents": self._surface_contents,
            "locate": self._locate,
            "purpose": self._purpose,
        }

    def observe(self, obs: Observation) -> None:
        """Record what is visible in `obs`."""
        self.memory.record(visible_objects(obs, self.scene, self.min_pixels))

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """A short answer from the observed objects; "unknown" when nothing observed fits. With `image` of the
        frame's size, what the image shows is observed instead of the current frame."""
        if image is not None and image.pixels.shape == (obs.height, obs.width, 3):
            obs = replace(obs, rgb=image.pixels, semantic=GroundTruth.semantic(image.semantic, "the image"))
        self.observe(obs)
        facts = ObservedFacts(self.memory)
        mentions = facts.mentions(question)
        query = Query(
            question,
            [m.name for m in mentions if m.kind == CATEGORY],
            next((m.name for m in mentions if m.kind == ROOM), ""),
            {m.kind: m.name for m in mentions if m.kind not in (CATEGORY, ROOM)},
            asks_yes_or_no(words(question)),
        )
        asked = masked(question, mentions, {CATEGORY: SUBJECT_PLACEHOLDER, ROOM: ROOM_PLACEHOLDER})
        unobserved = "" if query.categories else self.intents.about_unobserved(asked)
        if unobserved:
            return NOTHING_OBSERVED.get(unobserved, UNSEEN)
        intent = self.intents.classify(
            asked, bool(query.categories), facts.attribute_names(), set(query.values)
        )
        if intent.attribute:
            return self._attribute(facts, query, intent.attribute)
        return self.handlers[intent.name](facts, query)

    def _subjects(self, facts: ObservedFacts, query: Query) -> list[SceneObject]:
        """Observed objects of the subject category, in the named room when the question names one."""
        return facts.of_category(query.subject, query.room) if query.subject else []

    def _count(self, facts: ObservedFacts, query: Query) -> str:
        return str(len(self._subjects(facts, query)))

    def _exists(self, facts: ObservedFacts, query: Query) -> str:
        return "yes" if self._subjects(facts, query) else "no"

    def _attribute(self, facts: ObservedFacts, query: Query, attribute: str) -> str:
        values = [o.attributes[attribute] for o in self._subjects(facts, query) if attribute in o.attributes]
        return most_common(values) if values else UNSEEN

    def _locate(self, facts: ObservedFacts, query: Query) -> str:
        rooms = [room_of(o) for o in self._subjects(facts, query) if o.room]
        return f"in the {most_common(rooms)}" if rooms else UNSEEN

    def _surface_empty(self, facts: ObservedFacts, query: Query) -> str:
        surfaces = self._subjects(facts, query)
        if not surfaces:
            return UNSEEN
        items = facts.resting_on(surfaces[0])
        return f"no, {a_list(items)} {is_or_are(items)} on it" if items else "yes, there is nothing on it"

    def _surface_contents(self, facts: ObservedFacts, query: Query) -> str:
        surfaces = self._subjects(facts, query)
        if not surfaces:
            return UNSEEN
        items = facts.resting_on(surfaces[0])
        if query.yes_or_no:
            return f"yes, {a_list(items)} {is_or_are(items)} on it" if items else "no, it is empty"
        return a_list(items) if items else "nothing"

    def _identify(self, facts: ObservedFacts, query: Query) -> str:
        """The observed object with every named attribute value, near an object of a named category (when
        one is named) and of another category, in the named room; the nearest one first."""
        anchors = [a for category in query.categories for a in facts.of_category(category, query.room)]
        if query.categories and not anchors:
            return UNSEEN
        named = set(query.categories)
        candidates = [
            o
            for o in facts.objects
            if category_of(o) not in named
            and (not query.room or room_of(o) == query.room)
            and all(normalise_label(o.attributes.get(k, "")) == v for k, v in query.values.items())
        ]
        if not anchors:
            return f"a {category_of(candidates[0])}" if candidates else UNSEEN
        near = [
            (min(footprint_gap(c, a) for a in anchors if a.room_id == c.room_id), c.id, c)
            for c in candidates
            if any(a.room_id == c.room_id for a in anchors)
        ]
        near = [item for item in near if item[0] <= NEAR_M]
        return f"a {category_of(min(near)[2])}" if near else UNSEEN

    def _purpose(self, facts: ObservedFacts, query: Query) -> str:
        """The observed kind of object whose use fits the need best, and where one was seen."""
        categories = facts.categories()
        best, similarity = best_match(self.text, query.text, [use_text(c) for c in categories])
        if best < 0 or similarity < MIN_USE_SIMILARITY:
            return UNSEEN
        return place(facts.of_category(categories[best])[0])


@register("answerer", "oracle", oracle=True)
def oracle_answerer(config: AnswererConfig, ctx: OracleContext) -> OracleAnswerer:
    truth = ctx.ground_truth
    return OracleAnswerer(truth.scene, truth.min_pixels, ctx.models.text(config.text_model), truth.observed)
