"""The scene graph of observed objects (its own relations, its text) and the scene-graph answerer through a
scripted chat model (no model runs): what the model is given, how its reply becomes the answer, and that a
failed or empty reply is an answer ("") with its reason, never an exception."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tango.llm import ChatResponse, LLMError
from tango.perception.config import AnswererConfig
from tango.perception.scene_graph import GraphObject, SceneGraph, lies_on
from tango.perception.scene_graph_answerer import SceneGraphAnswerer, chat_backend, short_answer


def thing(key: str, category: str, room_key: str, center: tuple[float, float, float],
          size: tuple[float, float, float], room: str = "kitchen", **attributes: str) -> GraphObject:  # fmt: skip
    return GraphObject(key, category, room, room_key, center, size, attributes)


def kitchen_and_bedrooms() -> SceneGraph:
    return SceneGraph([
        thing("1", "table", "k", (0.0, 0.375, 0.0), (1.0, 0.75, 1.0), color="brown"),
        thing("2", "vase", "k", (0.1, 0.9, 0.1), (0.2, 0.3, 0.2), color="blue"),  # bottom 0.75: on the table
        thing("3", "chair", "k", (0.9, 0.45, 0.0), (0.4, 0.9, 0.4)),
        thing("4", "refrigerator", "k", (3.0, 0.9, 3.0), (0.7, 1.8, 0.7)),
        thing("5", "bed", "b1", (9.0, 0.5, 0.0), (2.0, 1.0, 1.6), room="bedroom"),
        thing("6", "bed", "b2", (9.0, 0.5, 6.0), (2.0, 1.0, 1.6), room="bedroom"),
    ])  # fmt: skip


class ScriptedChat:
    """Replies from a script (an LLMError item is raised) and keeps every request."""

    def __init__(self, *replies: str | LLMError) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, Any]]] = []

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse:
        self.requests.append(messages)
        reply = self.replies.pop(0)
        if isinstance(reply, LLMError):
            raise reply
        return ChatResponse(reply, "scripted")


def test_graph_relations_are_its_own_geometry() -> None:
    graph = kitchen_and_bedrooms()
    chair, table, vase = graph.objects[2], graph.objects[4], graph.objects[5]
    assert (table.category, vase.category, chair.category) == ("table", "vase", "chair")
    assert lies_on(vase, table) and not lies_on(table, vase) and not lies_on(chair, table)
    assert graph.lies_on(vase) is table
    assert [o.category for _, o in graph.beside(table)] == ["vase", "chair"]  # centres 0.14 m, 0.9 m
    assert graph.room_counts() == {"kitchen": 1, "bedroom": 2}


def test_graph_text_lists_rooms_objects_sizes_and_relations() -> None:
    text = kitchen_and_bedrooms().text()
    assert text.splitlines()[0] == "Rooms seen: 2 bedroom, 1 kitchen"
    assert "[bedroom 1]" in text and "[bedroom 2]" in text and "[kitchen]" in text
    assert "- vase: blue; 0.2x0.3x0.2 m; on table; near table 0.14, chair 0.81" in text
    assert "- refrigerator; 0.7x1.8x0.7 m; near chair 3.66, vase 4.1" in text
    assert SceneGraph([]).text() == "Nothing has been observed."


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Answer: the vase.", "the vase"),
        ("\n  3\nbecause three chairs", "3"),
        ('"kitchen"', "kitchen"),
        ("", ""),
        ("\x00\n### ???", ""),
        ("**\nAnswer: 2 chairs", "2 chairs"),
    ],
)
def test_short_answer_is_the_first_line_without_labels(reply: str, answer: str) -> None:
    assert short_answer(reply) == answer


def test_answerer_sends_the_graph_and_question_and_records_failures() -> None:
    graph = kitchen_and_bedrooms()
    chat = ScriptedChat("The blue vase", LLMError("HTTP 500: boom"), "   ")
    answerer = SceneGraphAnswerer(lambda obs: graph, chat)
    assert (
        answerer.answer_graph(graph, "What is on the table?") == "The blue vase" and answerer.last_error == ""
    )
    system, user = chat.requests[0]
    assert system["role"] == "system" and "from this list alone" in system["content"]
    assert user["content"] == f"{graph.text()}\n\nQuestion: What is on the table?\nShort answer:"
    assert answerer.answer_graph(graph, "How many beds?") == ""
    assert "the model request failed: HTTP 500: boom" in answerer.last_error
    assert answerer.answer_graph(graph, "How many beds?") == ""
    assert answerer.last_error == "scene-graph answerer: the model replied with nothing"


def test_backend_setup_errors_name_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="backend is 'cloud'; choose from"):
        chat_backend(AnswererConfig(kind="scene_graph", backend="cloud"))
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))
    with pytest.raises(ValueError, match="local model .* is missing: run python -m tango.llm fetch"):
        chat_backend(AnswererConfig(kind="scene_graph", backend="local"))
