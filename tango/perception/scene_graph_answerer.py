"""The scene-graph answerer: what the agent observed, written as text (tango.perception.scene_graph), is given
with the question to a language model, which answers in a short phrase (OpenEQA's Socratic "LLM with a
scene graph" baseline).

The model is the fetched local GGUF model in-process (`backend: local`, offline) or any OpenAI-compatible
endpoint (`backend: endpoint`). A failed request or an empty reply is an empty answer, logged: it is scored
as the answer the agent gave, never raised into the episode.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tango.llm import ChatClient, ChatResponse, LLMError
from tango.llm.models import DEFAULT_MODEL, model_path
from tango.perception.config import AnswererConfig
from tango.perception.scene_graph import SceneGraph
from tango.types.goals import GoalImage
from tango.types.observation import Observation

LOG = logging.getLogger(__name__)
BACKENDS = ("local", "endpoint")
MAX_ANSWER_CHARS = 200
MAX_REPLY_TOKENS = 48
CONTEXT_TOKENS = 6144

INSTRUCTIONS = """A robot explored a home and listed the objects it saw, room by room: each with the \
colour, material and size class it noticed, its width x height x depth in metres, what it lies on, and the \
closest objects with their distance in metres. Answer questions about the home from this list alone.
- Reply with the answer only, in one to five words: a number, yes or no, a colour, a material, an object or a \
room. For example: "3", "no", "blue", "wood", "the lamp", "the kitchen", "the oven in the kitchen".
- Count matching lines to count; compare the listed sizes to compare; an object not listed was not seen.
- If the list cannot answer the question, reply: unknown."""

_ANSWER_LIKE = re.compile(r"[^\W_]")
"""A line that can be an answer holds a letter or digit (a garbled line of control characters or marks cannot)."""
_PREFIX = re.compile(r"^\s*(?:answer|a)\s*[:\-]\s*", re.IGNORECASE)


class ChatBackend(Protocol):
    """Anything that answers chat messages: the OpenAI-compatible client or the in-process local model."""

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse: ...


def graph_messages(graph: SceneGraph, question: str) -> list[dict[str, Any]]:
    """The chat messages for one question: instructions, the observed scene as text, the question."""
    return [
        {"role": "system", "content": INSTRUCTIONS},
        {"role": "user", "content": f"{graph.text()}\n\nQuestion: {question.strip()}\nShort answer:"},
    ]


def short_answer(reply: str) -> str:
    """The answer in a model reply: its first line with a letter or digit, without an "Answer:" label, quotes
    or a final full stop, cut to MAX_ANSWER_CHARS ("" for an empty or garbled reply)."""
    line = next((part.strip() for part in reply.splitlines() if _ANSWER_LIKE.search(part)), "")
    line = _PREFIX.sub("", line).strip().strip("\"'`*").strip()
    return line.rstrip(".").strip()[:MAX_ANSWER_CHARS]


class SceneGraphAnswerer:
    """Answers from the scene graph of what was observed, through a chat model. `last_error` holds the reason
    of the last failed request ("" after a good one)."""

    def __init__(
        self,
        graph: Callable[[Observation], SceneGraph],
        chat: ChatBackend,
        observer: Callable[[Observation], None] | None = None,
    ) -> None:
        self.graph = graph
        self.chat = chat
        self.observer = observer
        self.last_error = ""

    def observe(self, obs: Observation) -> None:
        """Hand one frame the agent received to the graph's source (when it is fed frame by frame)."""
        if self.observer is not None:
            self.observer(obs)

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """The model's short answer about everything observed so far (`image` is not used: the graph is the
        whole observation)."""
        return self.answer_graph(self.graph(obs), question)

    def answer_graph(self, graph: SceneGraph, question: str) -> str:
        """The model's short answer to `question` about `graph`; "" when the request fails."""
        try:
            reply = self.chat.complete(graph_messages(graph, question)).text
        except LLMError as error:
            self.last_error = f"scene-graph answerer: the model request failed: {error}"
            LOG.warning("%s", self.last_error)
            return ""
        self.last_error = "" if reply.strip() else "scene-graph answerer: the model replied with nothing"
        return short_answer(reply)


_LOCAL: dict[str, ChatBackend] = {}


def chat_backend(config: AnswererConfig) -> ChatBackend:
    """The model the config names: the local GGUF model (loaded once per process) or an endpoint client.
    ValueError (a setup error) for an unknown backend or a local model that was never fetched."""
    if config.backend == "endpoint":
        return ChatClient(config.llm)
    if config.backend != "local":
        raise ValueError(f"perception.answerer.backend is {config.backend!r}; choose from {BACKENDS}")
    from tango.llm.local import LocalChatModel, LocalModelConfig

    name = config.local_model or DEFAULT_MODEL
    path = Path(name) if name.endswith(".gguf") else model_path(name)
    if not path.is_file():
        raise ValueError(
            f"the scene-graph answerer's local model {path} is missing: run python -m tango.llm fetch"
            f"{'' if name == DEFAULT_MODEL else ' --model ' + name}, or set perception.answerer.backend=endpoint"
        )
    key = str(path)
    if key not in _LOCAL:
        settings = LocalModelConfig(n_ctx=CONTEXT_TOKENS, max_tokens=MAX_REPLY_TOKENS, stop=("\n\n",))
        _LOCAL[key] = LocalChatModel(path, settings)
    return _LOCAL[key]
