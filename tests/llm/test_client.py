"""ChatClient against a real local chat-completions server: retries with backoff, errors, token counts."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from tango.llm import ChatClient, LLMConfig, LLMError, image_content, text_content
from tests.support.chat_server import ChatServer, Reply


def client_for(server: ChatServer, **overrides) -> ChatClient:
    settings = {"model": "m", "base_url": server.base_url, "api_key": "k", "max_retries": 2}
    settings |= {"retry_backoff_s": 0.01, "timeout_s": 5}
    settings.update(overrides)
    return ChatClient(LLMConfig(**settings))


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_errors_are_retried_then_succeed(status):
    with ChatServer() as server:
        server.queue(Reply(status=status), Reply("hello"))
        client = client_for(server)
        response = client.complete([{"role": "user", "content": "hi"}])
    assert response.text == "hello"
    assert client.retries == 1 and len(server.requests) == 2
    assert (response.prompt_tokens, response.completion_tokens) == (11, 7)
    assert client.prompt_tokens == 11


def test_retries_run_out_with_the_reason():
    with ChatServer() as server:
        server.queue(Reply(status=500), Reply(status=500), Reply(status=500), Reply("late"))
        client = client_for(server)
        with pytest.raises(LLMError, match=r"HTTP 500.*after 2 retries"):
            client.complete([{"role": "user", "content": "hi"}])
    assert len(server.requests) == 3


def test_client_errors_are_not_retried():
    with ChatServer() as server:
        server.queue(Reply(status=400))
        client = client_for(server)
        with pytest.raises(LLMError, match="HTTP 400"):
            client.complete([{"role": "user", "content": "hi"}])
    assert len(server.requests) == 1


def test_timeout_is_an_llm_error():
    with ChatServer() as server:
        server.queue(Reply("slow", delay_s=1.5))
        client = client_for(server, timeout_s=0.3, max_retries=0)
        with pytest.raises(LLMError, match="timeout after 0.3s"):
            client.complete([{"role": "user", "content": "hi"}])


def test_image_and_text_parts_reach_the_server():
    pixels = np.zeros((4, 5, 3), dtype=np.uint8)
    pixels[0, 0] = (255, 0, 0)
    with ChatServer() as server:
        server.queue(Reply("ok"))
        client_for(server).complete(
            [{"role": "user", "content": [text_content("look"), image_content(pixels)]}]
        )
    parts = server.requests[0]["messages"][0]["content"]
    assert parts[0] == {"type": "text", "text": "look"}
    encoded = parts[1]["image_url"]["url"].split(",", 1)[1]
    decoded = np.asarray(Image.open(io.BytesIO(base64.b64decode(encoded))))
    assert decoded.shape == (4, 5, 3) and tuple(decoded[0, 0]) == (255, 0, 0)
