"""The place-search judge: a vision-language model, through tango's LLM client (`urban.judge`), decides from the
agent's final first-person view and the street it stands on whether it ended at the requested kind of place.

This is how UrbanGround scores a place search (their files carry no ground-truth places), so tango uses it for
a file without tango's own `placeCandidates`; it is an evaluation component, named in every such episode's
record (`placesearch_judge`), and never reaches the agent. The reply must be one JSON object whose `found` is a
JSON boolean: the string "false" is not a finding (their `bool(payload.get("found"))` counts it as one).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from tango.urban.episode import UrbanEpisode

log = logging.getLogger(__name__)

QUESTION = (
    "You grade a walking agent in a city simulation. Its request was: {request}\n"
    "It stands on: {surface}\nThe image is its final first-person view.\n"
    "Has it arrived, meaning it stands at the entrance of, in front of, or inside a place of the requested kind, "
    "with that place (its front, entrance or sign) clearly in view? Seeing such a place only in the distance is "
    "not arriving.\n"
    'Reply with one JSON object only: {{"found": true or false, "reason": "what in the view decides it"}}'
)


@dataclass(frozen=True)
class Judgement:
    found: bool
    reason: str
    error: str = ""


def _verdict(text: str) -> Judgement:
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the reply")
    payload: Any = json.loads(text[start : end + 1])
    found = payload.get("found") if isinstance(payload, dict) else None
    if found not in (True, False):
        raise ValueError('the reply has no boolean "found"')
    return Judgement(found is True, str(payload.get("reason", ""))[:500])


class PlaceJudge:
    """Asks the configured model once per episode (two retries on an unusable reply)."""

    def __init__(self, llm: dict[str, Any]) -> None:
        from tango.llm import ChatClient, LLMConfig

        self.model = str(llm.get("model", ""))
        self.client = ChatClient(LLMConfig(**llm))

    def __call__(self, episode: UrbanEpisode) -> Judgement:
        from tango.llm import LLMError, image_content, text_content

        surface = str(episode.state.get("surface") or "unknown")
        prompt = QUESTION.format(request=episode.task.description, surface=surface)
        messages = [{"role": "user", "content": [text_content(prompt), image_content(episode.observe())]}]
        error = ""
        for _ in range(3):
            try:
                return _verdict(self.client.complete(messages).text)
            except (LLMError, ValueError) as failure:
                error = str(failure)
                log.info("place judge: %s", error)
        return Judgement(False, "", error)
