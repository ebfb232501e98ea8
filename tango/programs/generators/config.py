"""Configuration of program generation (hydra group `generator`: openai, local, hf, template, replay)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tango.config_utils import dataclass_from_dict

GENERATOR_NAMES = ("openai", "local", "hf", "template", "replay")
FALLBACKS = ("template", "fail")


class GeneratorError(ValueError):
    """A generator that cannot be built from its configuration (the message names the field or file)."""


@dataclass
class GeneratorConfig:
    """Which generator writes programs, how to reach its model, repair attempts, fallback and cache.

    `check` runs the pre-run check (targets and questions against the instruction); `max_replans` is how many
    revised programs a failed run may get per (sub)task. For `local`: `model` names a fetched model
    (python -m tango.llm list), `model_path` overrides the file; `n_ctx`, `threads` (0: half the usable cores)
    and `seed` set up llama.cpp. `grammar` decodes under the program grammar (tango.programs.grammar) where
    the backend can: `local` always, `openai` when `grammar_field` names the server's request field for a
    GBNF grammar ("grammar" for llama.cpp's server, "guided_grammar" for vLLM). Repairs after the first
    attempt sample at `repair_temperature` (0: greedy, the same reply again is then likely). `local` saves the
    prompt prefix's KV state in `prompt_state_dir` (empty: `{cache_dir}/prompt-state`), read by every process.
    `examples`: 0 gives the model the prompt library's fixed list; N > 0 the N examples whose questions are
    nearest the instruction by all-MiniLM-L6-v2 similarity (the system text stays the reusable prefix).
    `replan_attempts`: model calls per revised program (1: a revision that does not parse is dropped, not
    repaired). `goal_blocks`: an instruction with several goals gets one block per goal, each written for
    that goal alone, joined into one program (tango.programs.generators.goal_blocks); False asks for the
    whole program at once. Every reply is held to a token budget from the prompt's examples (per goal).
    """

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
    max_tokens: int = 1024
    check: bool = False
    max_replans: int = 0
    n_ctx: int = 4096
    threads: int = 0
    seed: int = 0
    grammar: bool = False
    grammar_field: str = ""
    prompt_state_dir: str = ""
    examples: int = 0
    repair_temperature: float = 0.7
    replan_attempts: int = 1
    goal_blocks: bool = True

    def __post_init__(self) -> None:
        if self.name not in GENERATOR_NAMES:
            raise GeneratorError(
                f"generator.name={self.name!r}; expected one of {', '.join(GENERATOR_NAMES)}"
            )
        if self.fallback not in FALLBACKS:
            raise GeneratorError(
                f"generator.fallback={self.fallback!r}; expected one of {', '.join(FALLBACKS)}"
            )
        if self.max_replans < 0:
            raise GeneratorError(f"generator.max_replans={self.max_replans}; it must be at least 0")
        if self.repair_temperature < 0:
            raise GeneratorError(f"generator.repair_temperature={self.repair_temperature}; it must be >= 0")
        if self.examples < 0:
            raise GeneratorError(f"generator.examples={self.examples}; it must be at least 0")
        if self.replan_attempts < 1:
            raise GeneratorError(f"generator.replan_attempts={self.replan_attempts}; it must be at least 1")
        if self.max_attempts < 1:
            raise GeneratorError(f"generator.max_attempts={self.max_attempts}; it must be at least 1")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> GeneratorConfig:
        """Build from a hydra/yaml mapping, refusing unknown keys by name."""
        return dataclass_from_dict(cls, values, "generator", GeneratorError)
