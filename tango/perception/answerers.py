"""Question answerers `answer(obs, question) -> str`: a VLM through the chat client, and the ORACLE answerer.

The oracle answers only from objects the agent has observed (its `ObservedObjects`), never from the scene.
BLIP-2 lives in `tango.perception.blip2`.
"""

from __future__ import annotations

import re
from collections import Counter

from tango.agent.observation import Observation
from tango.llm import ChatClient, image_content, text_content
from tango.perception.detections import normalise_label
from tango.perception.observed_memory import ObservedObject, ObservedObjects
from tango.perception.oracle import visible_objects
from tango.perception.oracle_scene import OracleScene

VLM_PROMPT = "Answer the question about this image in a few words.\nQuestion: {question}"
UNSEEN = "unknown"
ATTRIBUTE_WORDS = {
    "color": ("color", "colour"),
    "material": ("material", "made of"),
    "size": ("size", "how big", "how large"),
    "state": ("state", "open", "closed", "on or off"),
}


class VlmAnswerer:
    """Sends the current frame and the question to a vision-language model over the chat-completions API."""

    def __init__(self, client: ChatClient, prompt: str = VLM_PROMPT) -> None:
        self.client = client
        self.prompt = prompt

    def answer(self, obs: Observation, question: str) -> str:
        """The model's reply, stripped."""
        content = [text_content(self.prompt.format(question=question)), image_content(obs.rgb)]
        return self.client.complete([{"role": "user", "content": content}]).text.strip()


def mentioned_category(question: str, categories: list[str]) -> str | None:
    """The longest category named in `question` (singular or plural), or None."""
    text = " " + " ".join(re.findall(r"[a-z0-9]+", question.lower())) + " "
    named = [c for c in categories if f" {c} " in text or f" {c}s " in text or f" {c}es " in text]
    return max(named, key=len) if named else None


def most_common(values: list[str]) -> str:
    """The most frequent value (first seen wins ties)."""
    return Counter(values).most_common(1)[0][0]


class OracleAnswerer:
    """ORACLE answerer over observed objects: counts, attributes, rooms and presence of what was seen.

    Every call first records the objects visible in the current frame; objects never visible are unknown.
    """

    def __init__(self, scene: OracleScene, min_pixels: int, memory: ObservedObjects | None = None) -> None:
        self.scene = scene
        self.min_pixels = min_pixels
        self.memory = memory if memory is not None else ObservedObjects()

    def observe(self, obs: Observation) -> None:
        """Record what is visible in `obs` (call once per step to build the memory)."""
        self.memory.record(visible_objects(obs, self.scene, self.min_pixels))

    def answer(self, obs: Observation, question: str) -> str:
        """A short answer from the observed objects, "unknown" when nothing observed fits."""
        self.observe(obs)
        q = question.lower()
        category = mentioned_category(q, self.memory.categories())
        presence = re.match(r"\s*(is|are) there|\s*(do|did|can) you see", q) is not None
        if "how many" in q:
            return str(len(self.memory.of_category(category))) if category else "0"
        if category is None:
            return "no" if presence else UNSEEN
        seen = self.memory.of_category(category)
        if presence:
            return "yes"
        if "where" in q or "which room" in q or "what room" in q:
            rooms = [o.object.room for o in seen if o.object.room]
            return f"in the {most_common(rooms)}" if rooms else UNSEEN
        for attribute, words in ATTRIBUTE_WORDS.items():
            if any(word in q for word in words):
                values = [o.object.attributes[attribute] for o in seen if attribute in o.object.attributes]
                return most_common(values) if values else UNSEEN
        return describe_object(seen[0])


def describe_object(entry: ObservedObject) -> str:
    """ "the red wooden chair in the kitchen" from an observed object's annotation."""
    obj = entry.object
    words = [obj.attributes[k] for k in ("size", "color", "material") if k in obj.attributes]
    room = f" in the {obj.room}" if obj.room else ""
    return normalise_label(" ".join(["the", *words, obj.category])) + room
