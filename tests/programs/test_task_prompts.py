"""Per-task exposure: ObjectNav's and OVON's prompts and grammars offer verify(); GOAT and OpenEQA see exactly
what they saw before it existed (so their cached programs and measured LLM rows stay valid)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from tango.llm import ChatResponse
from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, parse
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.llm import LLMProgramGenerator
from tango.programs.generators.program_check import ProgramCheck
from tango.programs.generators.template import template_program
from tango.programs.grammar import program_grammar
from tango.programs.prompt import prompt_for_task
from tests.programs.fake_world import FakeObject, apartment

SHARED_TEXT = "c365f012dcd72a1788f44ba6b0f182b28af13f374846b726c3baa75d6157f9c4"
SHARED_GRAMMAR = "e35d9c06717af7c78d1d5b078e9ab9ed0bd87ad1fb8d88b01f6a05ab45e1f9c1"
"""sha256 of the system text + NUL + examples, and of the GBNF grammar, as main (8a2fbff) rendered them for
every habitat task before per-task exposure. If the shared prompt changes on purpose, the GOAT and OpenEQA LLM
rows of BENCHMARKS.md must be measured again; then update these."""
OBJECTNAV = prompt_for_task("objectnav")
CHAIR = (4.0, 0.0, 0.5)
LAMP = (13.0, 0.0, 0.5)
EXPECTED_STOPS = {
    "Find a chair.": [CHAIR],
    "Find the plant in the hallway.": [(1.0, 0.0, 0.0)],
    "Find a lamp.": [LAMP],
    "Go back to the chair you saw before.": [CHAIR],
    "Find the couch, then find the refrigerator.": [(9.0, 0.0, 0.0), (5.0, 0.0, -0.5)],
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("task", ["goat", "openeqa"])
def test_the_other_habitat_tasks_see_the_prompt_and_grammar_of_main_byte_for_byte(task: str) -> None:
    prompt = prompt_for_task(task)
    assert _sha(prompt.system + "\x00" + prompt.examples_text) == SHARED_TEXT
    assert prompt.digest == SHARED_TEXT[:16]
    assert _sha(program_grammar(prompt.toolbox, task=task)) == SHARED_GRAMMAR
    assert "verify" not in prompt.system + prompt.examples_text


def test_objectnav_offers_verify_with_its_signature_meaning_and_grammar_rule() -> None:
    assert (
        "verify(objects: list[ObjectHandle]) -> list[ObjectHandle]\n    Go close to the first"
        in OBJECTNAV.system
    )
    assert "look again" in OBJECTNAV.system and "else []" in OBJECTNAV.system
    assert '"verify("' in program_grammar("habitat", task="objectnav")
    assert '"verify("' not in program_grammar("habitat")
    assert OBJECTNAV.digest != SHARED_TEXT[:16]


def test_ovon_reads_objectnavs_examples_and_is_offered_verify() -> None:
    """OVON's instructions have ObjectNav's shape: the same checked searches, verify() in its API and grammar."""
    ovon = prompt_for_task("ovon")
    assert ovon.examples == OBJECTNAV.examples and ovon.system == OBJECTNAV.system
    assert ovon.task == "ovon" and '"verify("' in program_grammar("habitat", task="ovon")


def test_every_objectnav_example_searches_through_verify() -> None:
    for example in OBJECTNAV.examples:
        program = parse(example.program, toolbox="habitat")
        assert "verify(detect(" in program.source, example.question


def test_the_objectnav_find_example_is_the_template_program_with_its_object() -> None:
    example = next(e for e in OBJECTNAV.examples if e.question == "Find a chair.")
    named = template_program("objectnav", "Find a chair.").replace("target", "chair")
    assert parse(example.program).source == parse(named).source


@pytest.mark.parametrize("example", OBJECTNAV.examples, ids=lambda e: e.question[:40])
def test_each_objectnav_example_passes_the_look_alike_and_stops_at_the_real_object(example) -> None:
    budget = Budget(max_steps=500)
    world = apartment(budget)
    world.objects.append(FakeObject("lamp", LAMP, "bedroom"))
    world.mistaken[0] = "chair"  # the hallway plant, seen first, is also reported as a chair
    ctx = AgentContext(agent=world, budget=budget, inputs={})
    result = Interpreter().run(parse(example.program), ctx)
    assert result.ok, result.error
    assert world.stops == EXPECTED_STOPS[example.question]
    assert (0 in world.rejected) == ("chair" in example.question)


def test_the_check_sends_back_verify_given_a_text() -> None:
    check = ProgramCheck(similarity=lambda a, b: np.ones((len(a), len(b))))
    bad = parse("chair = verify('chair')\nif is_found(chair):\n    navigate_to(chair)\nstop()\n")
    assert "verify() takes what detect/match/recall returned" in check.problem(
        "objectnav", "Find a chair.", bad
    )
    good = parse(template_program("objectnav", "Find a chair."))
    assert check.problem("objectnav", "Find a chair.", good) is None


class _Backend:
    """A grammar-taking chat backend that records each call's grammar and answers a fixed valid program."""

    accepts_grammar = True

    def __init__(self) -> None:
        self.grammars: list[str] = []

    def complete(self, messages: list[dict], **options: str) -> ChatResponse:
        self.grammars.append(options["grammar"])
        return ChatResponse(template_program("objectnav", "Find a bed."), "fake", 10, 3, 0.5, 1.0)


def test_the_generator_decodes_each_task_under_its_own_grammar_and_keys_its_cache_by_it(tmp_path) -> None:
    backend = _Backend()
    generator = LLMProgramGenerator(
        "local", "fake", backend, "llm", cache=ProgramCache(tmp_path), grammar=True
    )
    generator.generate("objectnav", "Find a bed.")
    generator.generate("goat", "Find a bed.")
    assert backend.grammars == [program_grammar("habitat", task="objectnav"), program_grammar("habitat")]
    objectnav, goat = generator.prompt("objectnav"), generator.prompt("goat")
    assert f"grammar={SHARED_GRAMMAR[:12]}" in generator.settings(goat)
    assert generator.settings(objectnav) != generator.settings(goat)
    generator.generate("objectnav", "Find a bed.")
    assert len(backend.grammars) == 2  # the second ObjectNav request came from the cache
