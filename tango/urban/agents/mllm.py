"""An MLLM agent in UrbanGround's ReAct style: each turn it sees the current screenshot (first-person view or
map), the task text, new notices and (unless `show_state` is off) the app's state, and replies with one JSON
object {observation, reason, action}; one action per turn. Memory is text only (past replies), as theirs.

Replies are parsed with json.loads only (never evaluated); an invalid reply is sent back with the reason, up
to `retries` times, after which the turn is lost (counted). QA tasks ask for the final letter at the end.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from tango.urban.agents.program import AgentOutcome
from tango.urban.episode import EpisodeOver, InvalidAction, UrbanEpisode
from tango.urban.metrics import parse_letter

log = logging.getLogger(__name__)

SYSTEM = """You are a pedestrian agent in a city, controlled through an app. Each turn you get the current
screenshot (your first-person view, or the map when it is open) and must choose exactly one action.

First-person actions:
- {"action": "move" | "sprint", "dir": "forward" | "backward" | "left" | "right", "seconds": 0.05-2}
- {"action": "look", "yaw": -180..180 (positive turns right), "pitch": -90..90 (positive looks up)}
- {"action": "jump"}, {"action": "open_map"}
Map actions (only while the map is open; it is a north-up plan centred where you opened it):
- {"action": "map_pan", "east": metres, "north": metres}, {"action": "map_zoom", "factor": 0.25-4 (<1 closer)}
- {"action": "map_select", "x": 0-1, "y": 0-1 (y down)} tells you what is at that point
- {"action": "close_map"}
Both modes: {"action": "terminate"} when you have arrived or have enough evidence to answer.

Stay on pavements, crossings and footbridges; never cross a road closure (red on the map, barriers in view).
Reply with exactly one JSON object: {"observation": "...", "reason": "...", "action": {...}}"""

FINAL = (
    'Exploration is over. Answer the question with one JSON object: {"answer": "A" | "B" | "C" | "D", '
    '"reason": "..."}'
)


def first_json_object(text: str) -> dict[str, Any]:
    """The first balanced {...} in a reply, decoded; ValueError when there is none or it is not JSON."""
    start = text.find("{")
    while start >= 0:
        depth = 0
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                try:
                    value = json.loads(text[start : end + 1])
                except json.JSONDecodeError:
                    break
                if isinstance(value, dict):
                    return value
                break
        start = text.find("{", start + 1)
    raise ValueError("the reply holds no JSON object")


def _state_text(state: dict[str, Any]) -> str:
    keys = ("mode", "lat", "lon", "yaw", "surface", "time", "weather")
    return "State: " + ", ".join(f"{k}={state.get(k)}" for k in keys)


class MLLMAgent:
    def __init__(self, client: Any, show_state: bool = True, history: int = 8, retries: int = 2) -> None:
        self.client = client
        self.show_state = show_state
        self.history = history
        self.retries = retries

    def _turn(self, episode: UrbanEpisode, memory: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
        from tango.llm import LLMError, image_content, text_content

        user = [text_content(text), image_content(episode.observe())]
        messages = [
            {"role": "system", "content": SYSTEM},
            *memory[-2 * self.history :],
            {"role": "user", "content": user},
        ]
        for _ in range(self.retries + 1):
            try:
                reply = self.client.complete(messages).text
            except LLMError as error:
                raise RuntimeError(f"llm_error: {error}") from error
            try:
                payload = first_json_object(reply)
                from tango.urban.episode import check_action

                action = check_action(payload.get("action"), episode.mode)
            except (ValueError, InvalidAction) as error:
                messages += [
                    {"role": "assistant", "content": reply},
                    {
                        "role": "user",
                        "content": f"That reply cannot be executed: {error}. Reply with one "
                        "JSON object with observation, reason and action.",
                    },
                ]
                continue
            memory += [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
            return action
        episode.invalid_actions += 1
        return None

    def run(self, episode: UrbanEpisode) -> AgentOutcome:
        usage = (self.client.calls, self.client.prompt_tokens, self.client.completion_tokens)
        memory: list[dict[str, Any]] = []
        notices_given = 0
        turns = 0
        try:
            while not episode.done and turns < 2 * episode.max_steps:
                turns += 1
                parts = [] if memory else [f"Task:\n{episode.instruction}"]
                parts += episode.notices[notices_given:]
                notices_given = len(episode.notices)
                if episode.last_label:
                    parts.append(f"Last action: {episode.last_label}")
                if self.show_state:
                    parts.append(_state_text(episode.state))
                parts.append("Current observation attached. Choose one action.")
                action = self._turn(episode, memory, "\n".join(parts))
                if action is not None:
                    episode.act(action)
        except EpisodeOver:
            pass
        if episode.task.kind.family == "qa" and episode.answer is None:
            episode.answer = self._final_answer(episode, memory)
        return AgentOutcome(
            program_source="mllm",
            llm_calls=self.client.calls - usage[0],
            prompt_tokens=self.client.prompt_tokens - usage[1],
            completion_tokens=self.client.completion_tokens - usage[2],
        )

    def _final_answer(self, episode: UrbanEpisode, memory: list[dict[str, Any]]) -> str | None:
        from tango.llm import LLMError, image_content, text_content

        messages = [
            {"role": "system", "content": SYSTEM},
            *memory[-2 * self.history :],
            {
                "role": "user",
                "content": [
                    text_content(f"Task:\n{episode.instruction}\n{FINAL}"),
                    image_content(episode.observe()),
                ],
            },
        ]
        try:
            payload = first_json_object(self.client.complete(messages).text)
        except (LLMError, ValueError) as error:
            log.info("no final answer: %s", error)
            return None
        return parse_letter(payload.get("answer"))
