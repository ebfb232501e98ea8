"""The shipped prompt: 15 in-context examples that all parse and run on the fake world, and the generated API."""

from __future__ import annotations

import numpy as np
import pytest

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, StopReason, Trace, parse
from tango.programs.generators.program_check import structure_problem
from tango.programs.prompt import PromptError, build_prompt, parse_examples, prompt_for_task
from tango.types.goals import GoalImage
from tests.programs.fake_world import apartment

PROMPT = prompt_for_task("goat")
RED_COUCH = (9.0, 0.0, 0.0)
BED = (16.0, 0.0, 0.0)
FRIDGE = (5.0, 0.0, -0.5)
EXPECTED_STOPS = {
    "Find a chair.": [(4.0, 0.0, 0.5)],
    "Find the plant in the hallway.": [(1.0, 0.0, 0.0)],
    "Find the couch, then find the object shown in goal_images[0], then find the refrigerator.": [
        RED_COUCH,
        BED,
        FRIDGE,
    ],
    "Find the object described in goal_descriptions[0], then find the object described in "
    "goal_descriptions[1].": [RED_COUCH, BED],
    "Find the object described in goal_description: the red couch facing the TV.": [RED_COUCH],
    "Find the object shown in goal_image.": [RED_COUCH],
    "Find the couch shown in goal_image.": [RED_COUCH],
    "Go back to the chair you saw before.": [(4.0, 0.0, 0.5)],
}
EXPECTED_VALUES = {
    "What color is the couch?": "red",
    "How many couches have you seen so far?": "0",
    "In which room is the refrigerator?": "kitchen",
    "Is there a lamp above the bed?": "no",
}


def test_there_are_fifteen_examples_covering_the_goal_kinds():
    questions = [e.question for e in PROMPT.examples]
    assert len(questions) == 15
    text = PROMPT.examples_text
    for needed in ("match(goal_image)", "match(goal_description)", "recall(", "classify_room()", "count("):
        assert needed in text


@pytest.mark.parametrize("example", PROMPT.examples, ids=lambda e: e.question[:40])
def test_each_example_parses_and_runs_on_the_fake_world(example):
    budget = Budget(max_steps=500)
    world = apartment(budget)
    inputs = {
        "goal_image": GoalImage(np.full((6, 6, 3), (200, 20, 20), dtype=np.uint8)),
        "goal_description": "the red couch facing the tv",
        "goal_images": [GoalImage(np.full((6, 6, 3), (240, 240, 200), dtype=np.uint8))],
        "goal_descriptions": ["the red couch facing the tv", "the double bed"],
    }
    ctx = AgentContext(agent=world, budget=budget, trace=Trace(), inputs=inputs)
    result = Interpreter().run(parse(example.program), ctx)
    assert result.ok, result.error
    assert result.stop_reason in (StopReason.RETURNED, StopReason.COMPLETED)
    if example.question in EXPECTED_STOPS:
        assert world.stops == EXPECTED_STOPS[example.question]
    if example.question in EXPECTED_VALUES:
        assert result.value == EXPECTED_VALUES[example.question]
    if "How many chairs" in example.question:
        assert int(result.value) >= 1


def test_the_api_section_lists_every_registered_primitive_and_input():
    for name in ("explore_scene()", "detect(label: str)", "navigate_to(", "recall(target: str)", "stop()"):
        assert name in PROMPT.system
    assert "goal_image: GoalImage | None" in PROMPT.system
    assert "{api}" not in PROMPT.system


def test_messages_give_each_example_as_a_turn_and_the_question_last():
    messages = PROMPT.messages("Find the bed.")
    assert messages[0]["role"] == "system"
    assert messages[-1] == {"role": "user", "content": "Question: Find the bed.\nProgram:"}
    turns = messages[1:-1]
    assert [m["role"] for m in turns] == ["user", "assistant"] * len(PROMPT.examples)
    assert turns[1]["content"] == PROMPT.examples[0].program.rstrip() + "\n"
    assert PROMPT.text("Find the bed.").endswith("Question: Find the bed.\nProgram:\n")
    assert PROMPT.digest == prompt_for_task("goat").digest != prompt_for_task("objectnav").digest


def test_prompt_errors_name_the_file(tmp_path):
    with pytest.raises(PromptError, match="does not exist"):
        build_prompt("habitat", tmp_path)
    with pytest.raises(PromptError, match="ex.txt: example 1 has no 'Program:' line"):
        parse_examples("Question: hi\nno program", "ex.txt")
    with pytest.raises(PromptError, match="unknown task"):
        prompt_for_task("chess")


def test_graphnav_prompt_examples_parse_against_the_graphnav_toolbox():
    prompt = prompt_for_task("graphnav")
    assert "recall_route(start: str, goal: str)" in prompt.system
    for example in prompt.examples:
        assert parse(example.program, toolbox="graphnav").toolbox == "graphnav"


@pytest.mark.parametrize("example", PROMPT.examples, ids=lambda e: e.question[:40])
def test_each_example_passes_the_pre_run_structure_check(example):
    """Small models copy the examples' shapes: none may show a search that can only run once."""
    question = example.question.rstrip().endswith("?")
    assert structure_problem(parse(example.program), question=question) is None
