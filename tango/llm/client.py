"""Chat completions through the openai SDK against any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama).

Retries with exponential backoff on 429, 5xx, timeouts and connection errors are done here (the SDK's own
retries are off, so the backoff is a config value and every retry is counted); what reaches the caller after
`max_retries` retries is an `LLMError` with the reason.
"""

from __future__ import annotations

import base64
import io
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)
RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMError(RuntimeError):
    """A chat request that failed after all retries (the message names the cause)."""


@dataclass
class LLMConfig:
    """Where and how to call the model; empty base_url/api_key fall back to OPENAI_BASE_URL/OPENAI_API_KEY."""

    model: str = "gpt-4o-mini"
    base_url: str = ""
    api_key: str = ""
    timeout_s: float = 60.0
    max_retries: int = 4
    retry_backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    temperature: float = 0.0
    max_tokens: int = 1024
    stop: list[str] = field(default_factory=list)
    seed: int | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)


@dataclass
class ChatResponse:
    """The text the model returned and what it cost."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


def text_content(text: str) -> dict[str, Any]:
    """A text part of a multi-part chat message."""
    return {"type": "text", "text": text}


def image_content(image: np.ndarray, fmt: str = "PNG") -> dict[str, Any]:
    """An HxWx3 uint8 image as an inline data-URL image part of a chat message."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.asarray(image, dtype=np.uint8)).save(buffer, format=fmt)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:image/{fmt.lower()};base64,{encoded}"}}


class ChatClient:
    """A thin, typed wrapper over `openai.OpenAI().chat.completions.create` that counts tokens."""

    def __init__(self, config: LLMConfig) -> None:
        import openai

        self.config = config
        base_url = config.base_url or os.environ.get("OPENAI_BASE_URL") or None
        api_key = config.api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self._openai = openai
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=config.timeout_s, max_retries=0
        )
        self.calls = 0
        self.retries = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def complete(
        self, messages: list[dict[str, Any]], extra_body: dict[str, Any] | None = None
    ) -> ChatResponse:
        """Send one chat request, retrying transient failures with backoff; LLMError once retries are spent.
        `extra_body` adds request fields for this call (over the configured ones), e.g. a server's grammar."""
        self.calls += 1
        for retry in range(self.config.max_retries + 1):
            try:
                return self._request(messages, extra_body or {})
            except _Transient as transient:
                if retry == self.config.max_retries:
                    raise LLMError(f"{transient} (after {retry} retries)") from transient.__cause__
                delay = min(self.config.max_backoff_s, self.config.retry_backoff_s * 2**retry)
                logger.warning("chat request failed (%s); retry %d in %.2fs", transient, retry + 1, delay)
                self.retries += 1
                time.sleep(delay)
        raise LLMError("unreachable: retry loop ended without a result")

    def _request(self, messages: list[dict[str, Any]], extra: dict[str, Any]) -> ChatResponse:
        wall, cpu = time.perf_counter(), time.process_time()
        body = {**self.config.extra_body, **extra}
        max_tokens = int(body.pop("max_tokens", self.config.max_tokens))  # a per-call limit, as its own field
        try:
            optional: dict[str, Any] = {"stop": self.config.stop} if self.config.stop else {}
            if self.config.seed is not None:
                optional["seed"] = self.config.seed
            response = self._client.chat.completions.create(
                model=self.config.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.config.temperature,
                max_tokens=max_tokens,
                extra_body=body or None,
                **optional,
            )
        except self._openai.APITimeoutError as error:
            raise _Transient(f"timeout after {self.config.timeout_s}s") from error
        except self._openai.APIStatusError as error:
            if error.status_code in RETRYABLE_STATUS:
                raise _Transient(f"HTTP {error.status_code}: {error.message}") from error
            raise LLMError(f"HTTP {error.status_code}: {error.message}") from error
        except self._openai.APIConnectionError as error:
            raise _Transient(f"connection failed: {error}") from error
        usage = response.usage
        prompt_tokens = usage.prompt_tokens if usage else 0
        completion_tokens = usage.completion_tokens if usage else 0
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        text = (response.choices[0].message.content or "") if response.choices else ""
        return ChatResponse(
            text, response.model or self.config.model, prompt_tokens, completion_tokens,
            time.process_time() - cpu, time.perf_counter() - wall,
        )  # fmt: skip


class _Transient(Exception):
    """A failure worth retrying (rate limit, server error, timeout, connection)."""
