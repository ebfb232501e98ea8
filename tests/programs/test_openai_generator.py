"""The openai generator against a real local chat-completions server: success, 429/500 then success, repair
of an invalid program, timeout with fallback, and a cache hit on rerun that makes no request."""

from __future__ import annotations

import pytest

from tango.programs.generators import GeneratorConfig, make_generator
from tests.support.chat_server import ChatServer, Reply

VALID = "```python\nexplore_scene()\nbed = detect('bed')\nif is_found(bed):\n    navigate_to(bed)\n    stop()\n```"
CANONICAL = "while explore_scene():\n    bed = detect('bed')\n    if is_found(bed):\n        navigate_to(bed)\n        stop()\n"


def generator_for(server: ChatServer, tmp_path, **overrides):
    settings = {
        "name": "openai",
        "model": "test-model",
        "base_url": server.base_url,
        "api_key": "test-key",
        "max_retries": 2,
        "retry_backoff_s": 0.01,
        "timeout_s": 5.0,
        "cache_dir": str(tmp_path / "cache"),
    }
    settings.update(overrides)
    return make_generator(GeneratorConfig(**settings))


def test_a_valid_reply_is_parsed_and_recorded(tmp_path):
    with ChatServer() as server:
        server.queue(Reply(VALID))
        record = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
        request = server.requests[0]
    assert record.program == CANONICAL and record.program_source == "llm"
    assert record.raw_text == VALID and len(record.attempts) == 1 and record.errors == []
    assert (record.generator, record.model) == ("openai", "test-model")
    assert (record.prompt_tokens, record.completion_tokens) == (11, 7)
    assert request["model"] == "test-model"
    assert request["messages"][-1] == {"role": "user", "content": "Question: Find a bed.\nProgram:"}
    assert (
        request["messages"][1]["content"].startswith("Question: ")
        and request["messages"][2]["role"] == "assistant"
    )
    assert request["stop"] == ["\nQuestion:", "\nProgram:", "\n```\n"] and request["seed"] == 0
    assert "detect(label: str)" in request["messages"][0]["content"]


@pytest.mark.parametrize("status", [429, 500])
def test_a_transient_error_then_success(tmp_path, status):
    with ChatServer() as server:
        server.queue(Reply(status=status), Reply(VALID))
        record = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
        assert len(server.requests) == 2
    assert record.program == CANONICAL and len(record.attempts) == 1


def test_an_invalid_program_is_sent_back_with_its_error_and_repaired(tmp_path):
    with ChatServer() as server:
        server.queue(Reply("import os\nos.system('rm -rf /')"), Reply(VALID))
        record = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
        repair = server.requests[1]["messages"]
    assert record.program == CANONICAL and record.program_source == "llm"
    assert [a.error for a in record.attempts] == ["line 1: imports are not allowed", None]
    assert record.errors == ["line 1: imports are not allowed"]
    assert repair[-2] == {"role": "assistant", "content": "import os\nos.system('rm -rf /')"}
    assert "line 1: imports are not allowed" in repair[-1]["content"]
    assert record.prompt_tokens == 22


def test_invalid_replies_up_to_max_attempts_fall_back_to_the_template(tmp_path):
    with ChatServer(default_text="I cannot help with that.") as server:
        record = generator_for(server, tmp_path, max_attempts=2).generate("objectnav", "Find a bed.")
        assert len(server.requests) == 2
    assert record.program_source == "template" and "detect('bed')" in record.program
    assert record.fallback_reason.startswith("openai gave no valid program in 2 attempt(s)")
    assert record.failure_reason is None and len(record.errors) == 2


def test_fallback_fail_leaves_no_program_and_says_why(tmp_path):
    with ChatServer(default_text="x.y()") as server:
        record = generator_for(server, tmp_path, max_attempts=1, fallback="fail").generate(
            "goat", "Find a bed."
        )
    assert record.program is None and not record.ok
    assert "attribute access" in record.failure_reason


def test_a_timeout_is_recorded_and_falls_back(tmp_path):
    with ChatServer() as server:
        server.queue(Reply(VALID, delay_s=1.5))
        generator = generator_for(server, tmp_path, timeout_s=0.3, max_retries=0)
        record = generator.generate("objectnav", "Find a bed.")
    assert record.program_source == "template"
    assert record.attempts[0].error.startswith("model call failed: timeout after 0.3s")
    assert "timeout" in record.fallback_reason


def test_a_rerun_hits_the_cache_and_makes_no_request(tmp_path):
    with ChatServer() as server:
        server.queue(Reply(VALID), Reply(VALID.replace("bed", "sofa")))
        first = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
        again = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
        other = generator_for(server, tmp_path).generate("objectnav", "Find a sofa.")
        assert len(server.requests) == 2
    assert not first.cached and again.cached
    assert again.program == first.program and again.parsed is not None
    assert again.prompt_tokens == 0 and again.attempts[0].prompt_tokens == 11
    assert "detect('sofa')" in other.program and not other.cached


def test_a_failed_generation_is_cached_and_a_rerun_falls_back_without_asking(tmp_path):
    with ChatServer(default_text="nonsense(") as server:
        first = generator_for(server, tmp_path, max_attempts=1).generate("objectnav", "Find a bed.")
        again = generator_for(server, tmp_path, max_attempts=1).generate("objectnav", "Find a bed.")
        assert len(server.requests) == 1
    assert first.program_source == again.program_source == "template" and again.cached
    assert again.fallback_reason == first.fallback_reason


def test_a_failed_call_is_not_cached(tmp_path):
    with ChatServer() as server:
        server.queue(Reply(VALID, delay_s=1.5), Reply(VALID))
        generator_for(server, tmp_path, timeout_s=0.3, max_retries=0).generate("objectnav", "Find a bed.")
        record = generator_for(server, tmp_path).generate("objectnav", "Find a bed.")
    assert record.program == CANONICAL and not record.cached


def test_a_repair_samples_and_the_grammar_goes_in_the_configured_field(tmp_path):
    with ChatServer() as server:
        server.queue(Reply("import os"), Reply(VALID))
        generator = generator_for(server, tmp_path, grammar=True, grammar_field="grammar")
        record = generator.generate("objectnav", "Find a bed.")
        first, repair = server.requests
    assert first["grammar"].startswith("root ::=") and 'p-detect ::= "detect(" expr ")"' in first["grammar"]
    assert first["temperature"] == 0.0 and repair["temperature"] == 0.7
    assert [a.grammar for a in record.attempts] == [True, True]
    assert [a.temperature for a in record.attempts] == [0.0, 0.7]


def test_without_a_grammar_field_no_grammar_is_sent(tmp_path):
    with ChatServer() as server:
        server.queue(Reply(VALID))
        record = generator_for(server, tmp_path, grammar=True).generate("objectnav", "Find a bed.")
        assert "grammar" not in server.requests[0]
    assert record.attempts[0].grammar is False


def test_endpoint_and_key_come_from_the_environment_when_the_config_leaves_them_empty(tmp_path, monkeypatch):
    with ChatServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "env-key")
        server.queue(Reply(VALID))
        record = generator_for(server, tmp_path, base_url="", api_key="").generate("ovon", "Find a bed.")
        assert len(server.requests) == 1
    assert record.program == CANONICAL
