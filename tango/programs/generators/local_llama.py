"""The `local` generator: a fetched GGUF model in-process through llama.cpp (tango.llm.local), deterministic,
stopped at the prompt's own markers, with the fixed prompt prefix kept in the KV cache between programs.
The pre-run check and replanning are on by default (configs/generator/local.yaml)."""

from __future__ import annotations

from pathlib import Path

from tango.llm.local import LocalChatModel, LocalModelConfig
from tango.llm.models import model_path
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.config import GeneratorConfig, GeneratorError
from tango.programs.generators.llm import LLMProgramGenerator, configured_generator
from tango.programs.generators.openai_chat import STOP_SEQUENCES

_MODELS: dict[tuple[str, str], LocalChatModel] = {}


def local_model(config: GeneratorConfig) -> LocalChatModel:
    """The process's model for this file and settings (loaded once: it keeps its KV cache across episodes)."""
    path = Path(config.model_path) if config.model_path else model_path(config.model)
    if not path.is_file():
        raise GeneratorError(f"generator=local: model file {path} is missing; run: python -m tango.llm fetch")
    settings = LocalModelConfig(
        n_ctx=config.n_ctx, threads=config.threads, max_tokens=config.max_tokens,
        temperature=config.temperature, seed=config.seed, stop=STOP_SEQUENCES,
        state_dir=config.prompt_state_dir or (str(Path(config.cache_dir) / "prompt-state") if config.cache_dir else ""),
    )  # fmt: skip
    key = (str(path), repr(settings))
    if key not in _MODELS:
        _MODELS[key] = LocalChatModel(path, settings)
    return _MODELS[key]


def local_generator(config: GeneratorConfig, cache: ProgramCache | None) -> LLMProgramGenerator:
    backend = local_model(config)
    fetched = not config.model_path or Path(config.model_path) == model_path(config.model)
    return configured_generator(config, config.model if fetched else backend.name, backend, cache)
