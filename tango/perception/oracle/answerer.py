"""ORACLE question answering: general rules over the scene graph of the objects the agent observed, and a
language model over the same graph for every question no rule covers.

The rules are the ones that hold for any question of their kind, whatever its wording: counting observed
objects (in a room type) or observed rooms of a type, whether something was observed (in a room type), which
of two observed objects is taller, shorter, bigger or smaller by its observed size, an observed object's
reported attribute (colour, material, ...) and the room type it was seen in. A question is grounded in the
observed names it mentions (tango.perception.oracle.mentions; words near an observed category by MiniLM
similarity count as naming it: "sofa" for an observed couch, "restroom" for an observed bathroom); what it
asks is decided by English cues ("how many", a comparative, "is there", "where" with one object, choices
joined by "or", a named attribute value in a yes/no question) and otherwise by the nearest prototype
question (tango.perception.oracle.intents). A yes/no question is answered yes or no, never with a room or a
count; a count that names no object counts the room type it names.

Everything else (what stands where, what lies on what, what something is for) goes to the `fallback`: the
scene-graph answerer (tango.perception.scene_graph_answerer) with the configured model, or, with
`fallback: none`, the answer "unknown". The answerer never parses a dataset's sentences or returns its
phrasings: its answers are a number, yes or no, an attribute value, a room type or an object's name.

This module also registers the ORACLE graph source of the `scene_graph` answerer (`graph: observed`, the
annotated objects observed; tango.perception.scene_graph_detections holds the kind and the source from
detections).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from tango.perception.config import AnswererConfig
from tango.perception.context import BuildContext
from tango.perception.english import attribute_word, english_synonym
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.oracle.intents import (
    ROOM_PLACEHOLDER,
    SUBJECT_PLACEHOLDER,
    IntentClassifier,
    asks_yes_or_no,
)
from tango.perception.oracle.mentions import Mention, masked, words
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.observed_facts import CATEGORY, ROOM, ObservedFacts, most_common
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import visible_objects
from tango.perception.registry import register
from tango.perception.scene_graph import GraphObject, SceneGraph
from tango.perception.scene_graph_answerer import SceneGraphAnswerer, chat_backend
from tango.perception.scene_graph_detections import GraphFn, ObserveFn, graph_source
from tango.perception.text_similarity import TextEmbedder
from tango.types.goals import GoalImage
from tango.types.observation import Observation

UNSEEN = "unknown"
FALLBACKS = ("none", "scene_graph")
SYNONYM_SIMILARITY = 0.7
"""A question word (or two) this similar to an observed category (MiniLM) names that category."""
COMPARATIVES: dict[str, tuple[Callable[[GraphObject], float], bool]] = {
    "taller": (lambda o: o.height, True),
    "higher": (lambda o: o.height, True),
    "shorter": (lambda o: o.height, False),
    "lower": (lambda o: o.height, False),
    "bigger": (lambda o: o.volume, True),
    "larger": (lambda o: o.volume, True),
    "smaller": (lambda o: o.volume, False),
    "longer": (lambda o: max(o.size[0], o.size[2]), True),
    "wider": (lambda o: max(o.size[0], o.size[2]), True),
}
SUPERLATIVES = {
    "tallest": "taller", "highest": "higher", "shortest": "shorter", "lowest": "lower", "biggest": "bigger",
    "largest": "larger", "smallest": "smaller", "longest": "longer", "widest": "wider",
}  # fmt: skip
COMPARATIVES.update(
    {superlative: COMPARATIVES[comparative] for superlative, comparative in SUPERLATIVES.items()}
)
MEASURES = {"height": ("taller", "shorter"), "size": ("bigger", "smaller"), "length": ("longer", "shorter")}
"""A measure noun and its comparatives, for "which has greater height" / "the smaller size"."""
MORE_WORDS = frozenset({"greater", "greatest", "more", "most", "larger", "bigger", "higher"})
LESS_WORDS = frozenset({"less", "least", "lesser", "smaller", "lower"})
"""Comparative adjective -> the observed size it compares and whether the larger value wins."""
COUNT_CUES = (("how", "many"), ("number", "of"))
EXISTENCE_OPENERS = (
    ("is", "there"), ("are", "there"), ("is", "anything"), ("are", "any"), ("do", "you", "see"),
    ("did", "you", "see"), ("can", "you", "see"), ("have", "you", "seen"), ("did", "you", "notice"),
)  # fmt: skip
"""How English opens a question about whether something is there."""
INDEFINITES = frozenset({"a", "an", "any", "some"})
PHRASE_ENDS = frozenset({"on", "or", "and", "near", "by", "next", "under", "than", "beside", "behind"})
"""Words that end the noun phrase an indefinite article opens (besides LOCATION_WORDS)."""
PRESENCE_VERBS = frozenset({"have", "has", "contain", "contains", "find", "see", "spot", "notice", "keep"})
LOCATION_WORDS = frozenset({"in", "inside", "within", "of", "at", "from", "into", "throughout"})
DETERMINERS = frozenset(
    {"the", "this", "that", "a", "an", "your", "my", "our", "either", "each", "every", "both", "any", "one"}
)
FILLER_WORDS = frozenset(
    {"the", "this", "that", "there", "here", "what", "which", "where", "how", "many", "is", "are", "was",
     "were", "does", "did", "have", "has", "any", "some", "home", "house", "apartment", "flat", "room",
     "rooms", "one", "and", "or", "with", "color", "colour", "material", "made", "tell", "me", "you", "see"}
)  # fmt: skip
"""Words never taken as naming an observed category by similarity (question words and the home itself)."""


@dataclass(frozen=True)
class Query:
    """A question grounded in the observed names: the categories it names (in reading order), the room type
    it names and whether that room is where to look ("in the kitchen") rather than what is asked about
    ("how many bedrooms"), the attribute values it names, and whether it asks for yes or no."""

    text: str
    tokens: list[str]
    mentions: list[Mention]
    categories: list[str]
    room: str
    room_is_place: bool
    values: dict[str, str]
    yes_or_no: bool
    names_unobserved: bool = False

    @property
    def subject(self) -> str:
        return self.categories[0] if self.categories else ""

    def asks_count(self) -> bool:
        pairs = set(zip(self.tokens, self.tokens[1:]))
        return any(cue in pairs for cue in COUNT_CUES)

    def asks_existence(self) -> bool:
        return any(tuple(self.tokens[: len(opener)]) == opener for opener in EXISTENCE_OPENERS)

    def asks_room_contents(self) -> bool:
        """A yes/no question whether a room has a thing: the room named before the verb, the thing after it
        ("Does the kitchen contain any chairs?", not "Does the kitchen's table hold a vase?")."""
        verb = next((i for i, t in enumerate(self.tokens) if t in PRESENCE_VERBS), None)
        rooms = [m.start for m in self.mentions if m.kind == ROOM]
        things = [m.start for m in self.mentions if m.kind == CATEGORY]
        return self.yes_or_no and verb is not None and bool(rooms and things) and rooms[0] < verb < things[0]

    def asks_whether_present(self) -> bool:
        """A yes/no question about whether something is there ("is there", "does the kitchen have")."""
        return self.yes_or_no and (self.asks_existence() or any(t in PRESENCE_VERBS for t in self.tokens))

    def asks_where(self) -> bool:
        return bool(self.tokens) and self.tokens[0] == "where"

    def alternatives(self) -> bool:
        """Whether the question offers choices joined by "or" ("wood or glass?")."""
        return "or" in self.tokens

    def comparative(self) -> str:
        """The comparative (or superlative) adjective the question asks by, or the one its measure noun and
        "greater"/"less" mean ("which has greater height" -> taller)."""
        for noun, (more, less) in MEASURES.items():
            if noun in self.tokens and MORE_WORDS & set(self.tokens):
                return more
            if noun in self.tokens and LESS_WORDS & set(self.tokens):
                return less
        return next((word for word in self.tokens if word in COMPARATIVES), "")


def room_is_place(tokens: list[str], mention: Mention, names_objects: bool) -> bool:
    """Whether a room mention says where to look rather than what is asked about: always when the question
    names objects ("the kitchen's sink", "does the kitchen have a sink", "the dining room table"), else
    after "in"/"of"/... (past determiners) or as a possessive."""
    if names_objects:
        return True
    index = mention.start - 1
    while index >= 0 and tokens[index] in DETERMINERS:
        index -= 1
    possessive = mention.end < len(tokens) and tokens[mention.end] == "s"
    return possessive or (index >= 0 and tokens[index] in LOCATION_WORDS)


def names_unobserved(tokens: list[str], mentions: list[Mention]) -> bool:
    """Whether the first noun phrase an indefinite article opens ("a dishwasher", "any towels on the bed")
    names nothing observed: no category, room or attribute value of it was seen."""
    covered = {i for m in mentions for i in range(m.start, m.end)}
    start = next((i + 1 for i, token in enumerate(tokens) if token in INDEFINITES), None)
    if start is None:
        return False
    phrase = []
    for index in range(start, len(tokens)):
        if tokens[index] in LOCATION_WORDS or tokens[index] in PHRASE_ENDS:
            break
        phrase.append(index)
    return bool(phrase) and not any(index in covered for index in phrase)


class OracleAnswerer:
    """ORACLE answerer: each call first records what the current frame shows, then answers from everything
    observed, by rule where one applies and through `fallback` (None: "unknown") otherwise."""

    def __init__(
        self,
        scene: OracleScene,
        min_pixels: int,
        text: TextEmbedder,
        memory: ObservedObjects | None = None,
        fallback: SceneGraphAnswerer | None = None,
    ) -> None:
        self.scene = scene
        self.min_pixels = min_pixels
        self.memory = memory if memory is not None else ObservedObjects()
        self.text = text
        self.intents = IntentClassifier(text)
        self.fallback = fallback

    def observe(self, obs: Observation) -> None:
        """Record what is visible in `obs`."""
        self.memory.record(visible_objects(obs, self.scene, self.min_pixels))

    def graph(self, obs: Observation) -> SceneGraph:
        """The scene graph of everything observed, after recording `obs`."""
        self.observe(obs)
        return ObservedFacts(self.memory).graph()

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """A short answer from the observed objects. With `image` of the frame's size, what the image shows
        is observed instead of the current frame."""
        if image is not None and image.pixels.shape == (obs.height, obs.width, 3):
            obs = replace(obs, rgb=image.pixels, semantic=GroundTruth.semantic(image.semantic, "the image"))
        self.observe(obs)
        facts = ObservedFacts(self.memory)
        graph = facts.graph()
        query = self.query(question, facts)
        ruled = self.by_rule(graph, query)
        if ruled is not None:
            return ruled
        return self.fallback.answer_graph(graph, question) if self.fallback is not None else UNSEEN

    def query(self, question: str, facts: ObservedFacts) -> Query:
        """The question grounded in the observed names (and their near synonyms)."""
        tokens = words(question)
        names = [(CATEGORY, c) for c in facts.categories()]
        names += [(ROOM, r) for r in sorted(facts.vocabulary()[ROOM])]
        mentions = self._with_synonyms(tokens, facts.mentions(question), names)
        taken = {i for m in mentions for i in range(m.start, m.end)}
        named = [(i, attribute_word(t)) for i, t in enumerate(tokens) if i not in taken]
        mentions = sorted(
            [*mentions, *(Mention(value[0], value[1], i, i + 1) for i, value in named if value)],
            key=lambda m: m.start,
        )
        rooms = [m for m in mentions if m.kind == ROOM]
        return Query(
            question,
            tokens,
            mentions,
            [m.name for m in mentions if m.kind == CATEGORY],
            rooms[0].name if rooms else "",
            bool(rooms) and room_is_place(tokens, rooms[0], any(m.kind == CATEGORY for m in mentions)),
            {m.kind: m.name for m in reversed(mentions) if m.kind not in (CATEGORY, ROOM)},
            asks_yes_or_no(tokens),
            names_unobserved(tokens, mentions),
        )

    def _with_synonyms(
        self, tokens: list[str], mentions: list[Mention], names: list[tuple[str, str]]
    ) -> list[Mention]:
        """`mentions` plus the free words (one or two) that name an observed category or room type (`names`:
        (kind, name) pairs): an everyday English name of it ("washroom", "settee", tango.perception.english),
        else the nearest name above SYNONYM_SIMILARITY ("restroom" for a bathroom)."""
        taken = {i for m in mentions for i in range(m.start, m.end)}
        spans = [
            (start, start + size)
            for size in (2, 1)
            for start in range(len(tokens) - size + 1)
            if not any(i in taken for i in range(start, start + size))
            and not any(tokens[i] in FILLER_WORDS or len(tokens[i]) < 3 for i in range(start, start + size))
        ]
        found = list(mentions)
        kinds = {name: kind for kind, name in names}
        free = [(a, a + n) for n in (2, 1) for a in range(len(tokens) - n + 1)]
        for start, end in free:  # everyday names first (filler words too: "sitting room")
            canonical = english_synonym(tokens[start:end])
            if canonical in kinds and not any(i in taken for i in range(start, end)):
                found.append(Mention(kinds[canonical], canonical, start, end))
                taken.update(range(start, end))
        spans = [(a, b) for a, b in spans if not any(i in taken for i in range(a, b))]
        if not spans or not names:
            return sorted(found, key=lambda m: m.start)
        similarity = self.text.similarity([" ".join(tokens[a:b]) for a, b in spans], [n for _, n in names])
        for (start, end), row in zip(spans, similarity):
            best = int(row.argmax())
            if row[best] >= SYNONYM_SIMILARITY and not any(i in taken for i in range(start, end)):
                found.append(Mention(names[best][0], names[best][1], start, end))
                taken.update(range(start, end))
        return sorted(found, key=lambda m: m.start)

    def by_rule(self, graph: SceneGraph, query: Query) -> str | None:
        """The answer when a general rule covers the question, else None."""
        if query.names_unobserved and query.asks_whether_present():
            return "no"  # "Does the kitchen have a dishwasher?" when no dishwasher was observed
        comparative = query.comparative()
        if comparative and len(set(query.categories)) >= 2:
            return self._compare(graph, query, comparative)
        if query.asks_count():
            return self._count(graph, query)
        if query.asks_existence() or query.asks_room_contents():
            return self._exists(graph, query)  # "is there ...", "does the kitchen contain any chairs?"
        if query.subject and query.values and query.alternatives():
            return self._attribute(graph, query, next(iter(query.values)))
        if query.subject and query.values and query.yes_or_no:
            return self._has_values(graph, query)
        if query.asks_where() and len(set(query.categories)) == 1:
            return self._locate(graph, query)
        asked = masked(query.text, query.mentions, {CATEGORY: SUBJECT_PLACEHOLDER, ROOM: ROOM_PLACEHOLDER})
        observed_attributes = {k for o in graph.objects for k in o.attributes} - set(query.values)
        intent = self.intents.classify(asked, observed_attributes)
        if intent.name == "exists" or (query.yes_or_no and intent.name in ("count", "locate")):
            return self._exists(graph, query)
        if intent.name == "count":
            return self._count(graph, query)
        if not query.subject:
            return None
        if intent.attribute:
            return self._attribute(graph, query, intent.attribute)
        if intent.name == "locate":
            return self._locate(graph, query)
        return None

    def _subjects(self, graph: SceneGraph, query: Query, category: str = "") -> list[GraphObject]:
        room = query.room if query.room_is_place else ""
        return graph.of_category(category or query.subject, room)

    def _count(self, graph: SceneGraph, query: Query) -> str:
        if query.subject:
            return str(len(self._subjects(graph, query)))
        if query.room:  # no object named: the room type is what is counted ("the number of bathrooms")
            return str(graph.room_counts()[query.room])
        if "rooms" in query.tokens:
            return str(len(graph.room_instances()))
        return "0"

    def _exists(self, graph: SceneGraph, query: Query) -> str:
        if query.subject:
            found = [
                o for o in self._subjects(graph, query)
                if all(o.attributes.get(k) == v for k, v in query.values.items())
            ]  # fmt: skip
            return "yes" if found else "no"
        if query.room and not query.room_is_place:
            return "yes" if graph.room_counts()[query.room] else "no"
        if query.values:  # "Is there anything green in the kitchen?"
            room = query.room if query.room_is_place else ""
            candidates = [o for o in graph.objects if not room or o.room == room]
            found = [o for o in candidates if all(o.attributes.get(k) == v for k, v in query.values.items())]
            return "yes" if found else "no"
        return "no"

    def _has_values(self, graph: SceneGraph, query: Query) -> str:
        """Whether the subject has the attribute values the question names ("Is the table wooden?")."""
        subjects = [o for o in self._subjects(graph, query) if set(query.values) & set(o.attributes)]
        if not subjects:
            return UNSEEN
        return "yes" if all(subjects[0].attributes.get(k, v) == v for k, v in query.values.items()) else "no"

    def _compare(self, graph: SceneGraph, query: Query, comparative: str) -> str:
        measure, larger_wins = COMPARATIVES[comparative]
        first, second = list(dict.fromkeys(query.categories))[:2]
        sizes = {}
        for category in (first, second):
            found = self._subjects(graph, query, category) or graph.of_category(category)
            if not found:
                return UNSEEN
            sizes[category] = measure(found[0])
        winner = max(sizes, key=lambda c: sizes[c] if larger_wins else -sizes[c])
        if query.yes_or_no:
            return "yes" if winner == first else "no"
        return f"the {winner}"

    def _attribute(self, graph: SceneGraph, query: Query, attribute: str) -> str:
        values = [o.attributes[attribute] for o in self._subjects(graph, query) if attribute in o.attributes]
        return most_common(values) if values else UNSEEN

    def _locate(self, graph: SceneGraph, query: Query) -> str:
        rooms = [o.room for o in graph.of_category(query.subject) if o.room]
        return " and ".join(dict.fromkeys(rooms)) if rooms else UNSEEN


@register("answerer", "oracle", oracle=True)
def oracle_answerer(config: AnswererConfig, ctx: OracleContext) -> OracleAnswerer:
    """Rules over the observed objects; `fallback: scene_graph` sends the other questions to the model."""
    if config.fallback not in FALLBACKS:
        raise ValueError(f"perception.answerer.fallback is {config.fallback!r}; choose from {FALLBACKS}")
    truth = ctx.ground_truth
    answerer = OracleAnswerer(
        truth.scene, truth.min_pixels, ctx.models.text(config.text_model), truth.observed
    )
    if config.fallback == "scene_graph":
        answerer.fallback = SceneGraphAnswerer(answerer.graph, chat_backend(config))
    return answerer


@graph_source("observed")
def observed_source(config: AnswererConfig, ctx: BuildContext) -> tuple[GraphFn, ObserveFn | None]:
    """ORACLE graph source of the `scene_graph` answerer: the annotated objects the agent observed (the
    ground truth records every frame itself)."""
    truth = cast(OracleContext, ctx).ground_truth  # the answerer's predicate made it an oracle context
    rules = OracleAnswerer(truth.scene, truth.min_pixels, ctx.models.text(config.text_model), truth.observed)
    return rules.graph, None
