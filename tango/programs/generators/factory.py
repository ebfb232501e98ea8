"""Build the configured program generator."""

from __future__ import annotations

from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.config import GeneratorConfig, GeneratorError
from tango.programs.generators.replay import ReplayGenerator
from tango.programs.generators.template import TemplateGenerator


def make_generator(config: GeneratorConfig) -> ProgramGenerator:
    """The generator named by `config.name` (openai, local, hf, template, replay), with its cache when configured."""
    cache = ProgramCache(config.cache_dir) if config.cache_dir else None
    if config.name == "template":
        return TemplateGenerator()
    if config.name == "replay":
        if not config.replay_path:
            raise GeneratorError("generator.replay_path must name a JSONL file for generator=replay")
        return ReplayGenerator(config.replay_path)
    if config.name == "openai":
        from tango.programs.generators.openai_chat import openai_generator

        return openai_generator(config, cache)
    if config.name == "local":
        from tango.programs.generators.local_llama import local_generator

        return local_generator(config, cache)
    from tango.programs.generators.hf_local import hf_generator

    return hf_generator(config, cache)
