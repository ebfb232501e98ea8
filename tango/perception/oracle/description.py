"""ORACLE description goals (GOAT "lang_desc"): parse into category, attributes and relations, and score the
observed candidates by their annotation (MiniLM similarity plus attribute and room agreement, plus nearness to
related objects). The CLIP matcher of real perception is in tango.perception.clip_description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from tango.agent.observation import Observation
from tango.perception.detections import Detections, normalise_label
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.scene import OracleScene
from tango.perception.text_similarity import TextEmbedder
from tango.sim.scene import SceneObject

COLORS = (
    "black", "white", "gray", "grey", "red", "green", "blue", "yellow", "orange", "purple", "pink", "brown",
    "beige", "silver", "gold", "cream", "teal", "navy",
)  # fmt: skip
MATERIALS = ("wood", "wooden", "metal", "metallic", "glass", "leather", "fabric", "plastic", "stone", "marble",
             "ceramic", "wicker", "velvet", "wool", "woollen", "gold", "golden")  # fmt: skip
SIZES = ("small", "large", "big", "tiny", "tall", "short", "medium", "huge", "little")
RELATIONS = ("next to", "near", "beside", "in front of", "behind", "on top of", "on", "under", "below", "above",
             "between", "across from", "opposite")  # fmt: skip
SYNONYMS = {"grey": "gray", "wooden": "wood", "metallic": "metal", "woollen": "wool", "golden": "gold",
            "big": "large", "little": "small"}  # fmt: skip


@dataclass
class ParsedDescription:
    """What a description says about its target."""

    text: str
    category: str
    attributes: dict[str, str] = field(default_factory=dict)
    relations: list[tuple[str, str]] = field(default_factory=list)
    room: str = ""


def canonical(word: str) -> str:
    """One spelling per attribute value (grey -> gray, wooden -> wood)."""
    return SYNONYMS.get(word, word)


def parse_description(text: str, category: str, rooms: list[str], categories: list[str]) -> ParsedDescription:
    """Parse `text` about an object of `category`; `rooms`/`categories` are the vocabularies to recognise."""
    target = normalise_label(category)
    words = re.findall(r"[a-z]+", text.lower())
    joined = " " + " ".join(words) + " "
    cut = joined.find(f" {target} ")
    head = joined[:cut].split() if cut >= 0 else words
    attributes: dict[str, str] = {}
    for name, vocabulary in (("color", COLORS), ("material", MATERIALS), ("size", SIZES)):
        hit = next((w for w in head if w in vocabulary), None)
        if hit:
            attributes[name] = canonical(hit)
    room = max((r for r in rooms if f" {normalise_label(r)} " in joined), key=len, default="")
    relations: list[tuple[str, str]] = []
    for clause in re.split(r"[,.;]", text.lower()):
        clause_text = " " + " ".join(re.findall(r"[a-z]+", clause)) + " "
        for relation in RELATIONS:
            position = clause_text.find(f" {relation} ")
            if position < 0:
                continue
            for part in clause_text[position + len(relation) + 2 :].split(" and "):
                part = f" {part.strip()} "
                other = max((c for c in categories if f" {normalise_label(c)} " in part), key=len, default="")
                if other and normalise_label(other) != target and (relation, other) not in relations:
                    relations.append((relation, other))
            break
    return ParsedDescription(text, category, attributes, relations, room)


def object_text(obj: SceneObject) -> str:
    """ "small red wood chair in the kitchen" from an annotation."""
    words = [obj.attributes[k] for k in ("size", "color", "material") if k in obj.attributes]
    room = f" in the {obj.room}" if obj.room else ""
    return " ".join([*words, obj.category]) + room


class OracleDescriptionScorer:
    """ORACLE: score observed candidates by MiniLM similarity of description and annotation, plus agreement."""

    def __init__(self, scene: OracleScene, memory: ObservedObjects, text: TextEmbedder) -> None:
        self.scene = scene
        self.memory = memory
        self.text = text

    def parse(self, description: str, category: str) -> ParsedDescription:
        """Parse with the room types and categories observed so far (never the unobserved scene)."""
        rooms = sorted({o.object.room for o in self.memory.objects() if o.object.room})
        return parse_description(description, category, rooms, self.memory.categories())

    def score_instances(self, description: str, category: str, instance_ids: list[int]) -> np.ndarray:
        """(N,) scores of observed instances (unobserved ids score -inf)."""
        parsed = self.parse(description, category)
        observed = {o.object.id: o for o in self.memory.objects()}
        texts = [object_text(observed[i].object) if i in observed else "" for i in instance_ids]
        similarity = self.text.similarity([description], texts)[0] if texts else np.zeros(0)
        scores = np.full(len(instance_ids), -np.inf)
        for k, object_id in enumerate(instance_ids):
            if object_id not in observed:
                continue
            entry = observed[object_id]
            agreement = float(
                sum(canonical(entry.object.attributes.get(a, "")) == v for a, v in parsed.attributes.items())
            )
            agreement += int(bool(parsed.room) and entry.object.room == parsed.room)
            agreement += sum(self._nearness(entry.last_point, other) for _, other in parsed.relations)
            scores[k] = float(similarity[k]) + agreement
        return scores

    def _nearness(self, point: np.ndarray, category: str) -> float:
        """1 / (1 + floor distance in metres) to the nearest observed object of `category`; 0 if none seen."""
        others = [
            o.last_point for o in self.memory.of_category(category) if np.all(np.isfinite(o.last_point))
        ]
        if not others or not np.all(np.isfinite(point)):
            return 0.0
        distance = min(float(np.linalg.norm(p[[0, 2]] - point[[0, 2]])) for p in others)
        return 1.0 / (1.0 + distance)

    def score(self, obs: Observation, description: str, detections: Detections) -> np.ndarray:
        """(N,) scores of detections by their (oracle) instance ids."""
        category = detections.labels[0] if len(detections) else ""
        return self.score_instances(description, category, [int(i) for i in detections.instance_ids])
