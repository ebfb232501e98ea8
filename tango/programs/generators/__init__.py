"""Program generators (config group `generator`): openai, hf, template, replay; repair loop and cache."""

from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.cache import ProgramCache, cache_key
from tango.programs.generators.config import GeneratorConfig, GeneratorError
from tango.programs.generators.factory import make_generator
from tango.programs.generators.llm import ChatBackend, LLMProgramGenerator
from tango.programs.generators.record import Attempt, GenerationRecord
from tango.programs.generators.replay import ReplayGenerator
from tango.programs.generators.template import TemplateGenerator, template_program

__all__ = [
    "Attempt",
    "ChatBackend",
    "GenerationRecord",
    "GeneratorConfig",
    "GeneratorError",
    "LLMProgramGenerator",
    "ProgramCache",
    "ProgramGenerator",
    "ReplayGenerator",
    "TemplateGenerator",
    "cache_key",
    "make_generator",
    "template_program",
]
