"""The `openai` generator: any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama) through ChatClient."""

from __future__ import annotations

from tango.llm import ChatClient, LLMConfig
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.llm import LLMProgramGenerator, configured_generator

STOP_SEQUENCES = ("\nQuestion:", "\nProgram:", "\n```\n")


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
    return configured_generator(config, config.model, client, cache)
