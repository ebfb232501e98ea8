"""generator=local: the llama.cpp backend's own logic here; the real model in a slow test when it is fetched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tango.llm import LLMError
from tango.llm.local import LocalChatModel, LocalModelConfig, common_prefix, default_threads
from tango.llm.models import DEFAULT_MODEL, model_path
from tango.programs.generators import GeneratorConfig, GeneratorError, make_generator


def test_common_prefix_and_threads():
    assert common_prefix([1, 2, 3, 4], [1, 2, 9]) == 2
    assert common_prefix([], [1]) == 0 and common_prefix([5, 6], [5, 6]) == 2
    assert 1 <= default_threads() <= max(1, os.cpu_count() or 1)


def test_a_missing_model_file_names_the_fetch_command(tmp_path):
    with pytest.raises(LLMError, match=r"tango\[llm\]|python -m tango.llm fetch"):
        LocalChatModel(tmp_path / "absent.gguf")
    config = GeneratorConfig(name="local", model_path=str(tmp_path / "absent.gguf"))
    with pytest.raises(GeneratorError, match="python -m tango.llm fetch"):
        make_generator(config)


def test_local_defaults_turn_the_check_and_replanning_on():
    from hydra import compose, initialize_config_dir

    from tango.config_schema import register_configs

    register_configs()
    root = Path(__file__).resolve().parents[2] / "configs"
    with initialize_config_dir(str(root), version_base=None):
        cfg = compose("eval", overrides=["generator=local", "task=objectnav"])
    generator = GeneratorConfig.from_mapping(cfg["generator"])
    assert generator.name == "local" and generator.check and generator.max_replans == 2
    assert generator.temperature == 0.0 and generator.seed == 0
    assert generator.model == DEFAULT_MODEL == "qwen2.5-coder-1.5b" and generator.grammar
    assert generator.repair_temperature > 0


MODEL = Path(os.environ.get("TANGO_TEST_GGUF") or model_path(DEFAULT_MODEL))


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.is_file(), reason=f"no fetched model at {MODEL} (python -m tango.llm fetch)")
def test_the_real_model_writes_a_program_reusing_the_prompt_prefix(tmp_path):
    pytest.importorskip("cyllama")
    config = GeneratorConfig(name="local", model_path=str(MODEL), check=True, max_tokens=160, threads=1,
                             cache_dir=str(tmp_path / "programs"))  # fmt: skip
    generator = make_generator(config)
    first = generator.generate("objectnav", "Find a bed.")
    assert first.program_source == "llm" and first.parsed is not None, first.errors
    second = generator.generate("objectnav", "Find a toilet.")
    backend = generator.backend  # type: ignore[attr-defined]
    assert backend.last.reused_tokens > 1000
    assert second.program is not None
    again = make_generator(config).generate("objectnav", "Find a bed.")
    assert again.cached and again.program == first.program
    fresh = LocalChatModel(MODEL, LocalModelConfig(threads=1, max_tokens=160, stop=("\nQuestion:",)))
    messages = generator.prompt("objectnav").messages("Find a bed.")  # type: ignore[attr-defined]
    assert fresh.complete(messages).text == fresh.complete(messages).text


SMALL = Path(os.environ.get("TANGO_TEST_SMALL_GGUF") or model_path("qwen2.5-coder-0.5b"))


SHORT_SYSTEM = (
    "You control a robot. Write a short program in a small subset of Python. Functions: explore_scene() -> bool, "
    "detect(label: str) -> list, is_found(objects: list) -> bool, navigate_to(target) -> bool, stop(). "
    "Write only the program."
)
SHORT_EXAMPLE = "explore_scene()\nbed = detect('bed')\nif is_found(bed):\n    navigate_to(bed)\n    stop()\n"


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(not SMALL.is_file(), reason=f"no fetched model at {SMALL} (python -m tango.llm fetch)")
def test_the_real_small_model_under_the_grammar_parses_and_a_new_process_loads_the_prompt_state(tmp_path):
    """The 0.5B's greedy reply to 'Find a chair.' under the program grammar parses and calls only primitives;
    a second model object (as a new worker process would) reads the prompt prefix from the saved state. A short
    prompt (one example) keeps the test to about a minute of CPU; the full prompt is measured in BENCHMARKS."""
    pytest.importorskip("cyllama")
    from tango.programs.generators.openai_chat import STOP_SEQUENCES
    from tango.programs.grammar import program_grammar
    from tango.programs.parser import parse

    settings = LocalModelConfig(threads=1, max_tokens=120, stop=STOP_SEQUENCES, state_dir=str(tmp_path))
    messages = [
        {"role": "system", "content": SHORT_SYSTEM},
        {"role": "user", "content": "Question: Find a bed.\nProgram:"},
        {"role": "assistant", "content": SHORT_EXAMPLE},
        {"role": "user", "content": "Question: Find a chair.\nProgram:"},
    ]
    grammar = program_grammar("habitat")
    first = LocalChatModel(SMALL, settings)
    reply = first.complete(messages, grammar=grammar)
    assert first.last.loaded_tokens == 0 and list(tmp_path.glob("*.kv"))
    program = parse(reply.text, toolbox="habitat")
    assert "detect('chair')" in program.source, reply.text
    second = LocalChatModel(SMALL, settings)
    again = second.complete(messages, grammar=grammar)
    assert second.last.loaded_tokens > 50 and second.last.reused_tokens >= second.last.loaded_tokens
    assert again.text == reply.text
