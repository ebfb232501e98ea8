"""Configuration of program generation (hydra group `generator`: openai, hf, template, replay)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tango.config_utils import dataclass_from_dict

GENERATOR_NAMES = ("openai", "hf", "template", "replay")
FALLBACKS = ("template", "fail")


class GeneratorError(ValueError):
    """A generator that cannot be built from its configuration (the message names the field or file)."""


@dataclass
class GeneratorConfig:
    """Which generator writes programs, how to reach its model, repair attempts, fallback and cache."""

    name: str = "template"
    model: str = "gpt-4o-mini"
    base_url: str = ""
    api_key: str = ""
    model_path: str = ""
    device: str = "auto"
    replay_path: str = ""
    max_attempts: int = 3
    fallback: str = "template"
    cache_dir: str = ""
    prompts_dir: str = ""
    timeout_s: float = 60.0
    max_retries: int = 4
    retry_backoff_s: float = 1.0
    temperature: float = 0.0
    max_tokens: int = 512

    def __post_init__(self) -> None:
        if self.name not in GENERATOR_NAMES:
            raise GeneratorError(
                f"generator.name={self.name!r}; expected one of {', '.join(GENERATOR_NAMES)}"
            )
        if self.fallback not in FALLBACKS:
            raise GeneratorError(
                f"generator.fallback={self.fallback!r}; expected one of {', '.join(FALLBACKS)}"
            )
        if self.max_attempts < 1:
            raise GeneratorError(f"generator.max_attempts={self.max_attempts}; it must be at least 1")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> GeneratorConfig:
        """Build from a hydra/yaml mapping, refusing unknown keys by name."""
        return dataclass_from_dict(cls, values, "generator", GeneratorError)
