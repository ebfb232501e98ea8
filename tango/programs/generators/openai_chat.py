"""The `openai` generator: any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama) through ChatClient."""

from __future__ import annotations

from typing import Any

from tango.llm import ChatClient, ChatResponse, LLMConfig
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.llm import LLMProgramGenerator, configured_generator

STOP_SEQUENCES = ("\nQuestion:", "\nProgram:", "\n```\n")


class EndpointBackend:
    """The chat client with the generator's per-call options: the program grammar in the request field the
    server reads (`grammar_field`, e.g. llama.cpp server's "grammar", vLLM's "guided_grammar"), and a repair's
    temperature. Without a grammar field the server is not constrained and only the temperature changes."""

    accepts_options = True

    def __init__(self, client: ChatClient, grammar_field: str) -> None:
        self.client = client
        self.grammar_field = grammar_field
        self.accepts_grammar = bool(grammar_field)

    def complete(
        self,
        messages: list[dict[str, Any]],
        grammar: str = "",
        temperature: float | None = None,
        shared_prefix: int | None = None,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        """`shared_prefix` is for backends that keep state; a server does its own prefix caching. `max_tokens`
        lowers the configured reply limit for this request."""
        extra: dict[str, Any] = {}
        if max_tokens is not None:
            extra["max_tokens"] = min(max_tokens, self.client.config.max_tokens)
        if grammar and self.grammar_field:
            extra[self.grammar_field] = grammar
        if temperature is not None:
            extra["temperature"] = temperature
        return self.client.complete(messages, extra_body=extra)


def openai_generator(config: GeneratorConfig, cache: ProgramCache | None) -> LLMProgramGenerator:
    """base_url/api_key come from the config, else OPENAI_BASE_URL/OPENAI_API_KEY (see LLMConfig)."""
    client = ChatClient(
        LLMConfig(
            model=config.model,
            base_url=config.base_url,
            api_key=config.api_key,
            timeout_s=config.timeout_s,
            max_retries=config.max_retries,
            retry_backoff_s=config.retry_backoff_s,
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            stop=list(STOP_SEQUENCES),
            seed=config.seed,
        )
    )
    return configured_generator(config, config.model, EndpointBackend(client, config.grammar_field), cache)
