"""Plan-then-fill (tango.programs.generators.goal_blocks) and the reply budget, with fake chat backends (no
model runs here): each goal's block is the one-goal program, the joined program stops each goal once, and a
block ending in an unconditional stop() cannot end the episode's program after its first goal."""

from __future__ import annotations

from typing import Any

import numpy as np

from tango.llm import ChatResponse
from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, Trace, parse
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.goal_blocks import (
    GoalPart,
    goal_at_line,
    goal_parts,
    joined_program,
    program_from_goal,
    split_goals,
)
from tango.programs.generators.llm import LLMProgramGenerator
from tango.types.goals import GoalImage
from tests.programs.fake_world import apartment

SEARCH = (
    "explore_scene()\n{name} = detect('{label}')\nif is_found({name}):\n    navigate_to({name})\n    stop()\n"
)
# The trap of issue 27: the last stop() is unconditional, so as a bare search it runs one step.
ONE_STEP = (
    "explore_scene()\n{name} = detect('{label}')\nif is_found({name}):\n    navigate_to({name})\nstop()\n"
)
WHILE = (
    "{name} = recall('{label}')\nwhile not is_found({name}) and explore_scene():\n    {name} = detect('{label}')\n"
    "if is_found({name}):\n    navigate_to({name})\nstop()\n"
)
IMAGE = "explore_scene()\nx = match(goal_image)\nif is_found(x):\n    navigate_to(x)\n    stop()\n"


def run_joined(text: str, inputs: dict[str, Any] | None = None) -> tuple[Any, Any]:
    budget = Budget()
    world = apartment(budget)
    ctx = AgentContext(agent=world, budget=budget, trace=Trace(), inputs=inputs or {})
    return Interpreter().run(parse(text), ctx), world


def test_goal_parts_give_each_goal_its_one_goal_instruction_and_input_index() -> None:
    text = "Find the chair, then find the object shown in goal_images[1], then find the object described in goal_descriptions[0]."
    assert split_goals(text) == ["Find the chair", "find the object shown in goal_images[1]",
                                 "find the object described in goal_descriptions[0]."]  # fmt: skip
    assert goal_parts(text) == [
        GoalPart("Find the chair."),
        GoalPart("Find the object shown in goal_image.", "goal_image", 1),
        GoalPart("Find the object described in goal_description.", "goal_description", 0),
    ]
    assert split_goals("What is left of the TV, then?") == ["What is left of the TV, then?"]


def test_joined_blocks_stop_each_goal_once_in_order() -> None:
    blocks = [parse(SEARCH.format(name="c", label="chair")), parse(SEARCH.format(name="b", label="bed"))]
    text = joined_program(blocks, [GoalPart("Find the chair."), GoalPart("Find the bed.")], "habitat")
    result, world = run_joined(text)
    assert result.ok and [p[0] for p in world.stops] == [4.0, 16.0]


def test_an_unconditional_stop_cannot_end_the_episode_program_after_goal_one() -> None:
    """Concatenated as written, the first block's bare search takes in every later goal's statements (they
    hold no bare explore_scene()), so its one-step stop() skips them all; joined, each goal runs and stops."""
    blocks = [ONE_STEP.format(name="c", label="chair"), WHILE.format(name="s", label="couch"),
              WHILE.format(name="b", label="bed")]  # fmt: skip
    _, world = run_joined("".join(blocks))
    assert len(world.stops) == 1
    parts = [GoalPart(f"Find the {label}.") for label in ("chair", "couch", "bed")]
    result, world = run_joined(joined_program([parse(b) for b in blocks], parts, "habitat"))
    assert result.ok and [p[0] for p in world.stops] == [1.0, 9.0, 16.0]


def test_a_block_that_never_stops_is_stopped_once_and_a_return_ends_only_its_goal() -> None:
    missing = parse("explore_scene()\np = detect('piano')\nif is_found(p):\n    stop()\nreturn 'none'\n")
    bed = parse(WHILE.format(name="b", label="bed"))  # recall: the piano search saw the bed
    text = joined_program([missing, bed], [GoalPart("Find the piano."), GoalPart("Find the bed.")], "habitat")
    result, world = run_joined(text)
    assert result.ok and len(world.stops) == 2
    assert world.stops[0][0] == 20.0 and world.stops[1][0] == 16.0  # the piano search explored everything


def test_goal_image_reads_the_episode_input_of_its_goal() -> None:
    red = GoalImage(np.full((8, 8, 3), (200, 20, 20), dtype="uint8"))
    blue = GoalImage(np.full((8, 8, 3), (20, 20, 200), dtype="uint8"))
    parts = goal_parts(
        "Find the object shown in goal_images[1], then find the object shown in goal_images[0]."
    )
    text = joined_program([parse(IMAGE), parse(IMAGE)], parts, "habitat")
    assert "goal_images[1]" in text and "goal_image)" not in text
    _, world = run_joined(text, {"goal_images": [red, blue], "goal_image": None})
    assert [p[0] for p in world.stops] == [12.0, 9.0]  # goal_images[1] (blue couch) first, then the red one


def test_a_block_looks_in_memory_first_for_what_an_earlier_goal_saw() -> None:
    """The bed search walks past the plant; the plant block (explore first, as the model writes it) then goes
    straight to the remembered plant instead of searching again. A block that recalls by itself is kept."""
    blocks = [parse(SEARCH.format(name="b", label="bed")), parse(SEARCH.format(name="p", label="plant"))]
    text = joined_program(blocks, [GoalPart("Find the bed."), GoalPart("Find the plant.")], "habitat")
    assert "goal_2_seen = recall('plant')" in text
    result, world = run_joined(text)
    assert result.ok and [p[0] for p in world.stops] == [16.0, 1.0]
    after_bed = world.actions[world.actions.index("stop") + 1 :]
    assert "explore" not in after_bed, after_bed
    recalling = parse(WHILE.format(name="s", label="couch"))
    kept = joined_program([recalling], [GoalPart("Find the couch.")], "habitat")
    assert "goal_1_seen" not in kept
    image = joined_program([parse(IMAGE)], goal_parts("Find the object shown in goal_images[2]."), "habitat")
    assert "goal_1_seen = match(goal_images[2])" in image


def test_the_program_from_a_goal_on_and_the_goal_of_a_line() -> None:
    parts = [GoalPart(f"Find the {label}.") for label in ("chair", "bed", "plant")]
    blocks = [parse(SEARCH.format(name="t", label=p.instruction[9:-1])) for p in parts]
    joined = parse(joined_program(blocks, parts, "habitat"))
    lines = joined.source.splitlines()
    second = lines.index("goal_2_done = False") + 1
    assert goal_at_line(joined, 1) == 1 and goal_at_line(joined, second) == 2
    assert goal_at_line(joined, len(lines)) == 3
    rest = program_from_goal(joined, 2)
    assert rest is not None and rest.source.startswith("goal_2_done = False")
    assert "goal_1_done" not in rest.source and "goal_3_done" in rest.source
    assert program_from_goal(joined, 4) is None
    assert program_from_goal(parse(SEARCH.format(name="c", label="chair")), 1) is None


class _Backend:
    """Answers each one-goal question with a search for the goal's object; records each call's options."""

    accepts_grammar = False
    accepts_options = True

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def complete(self, messages: list[dict[str, Any]], **options: Any) -> ChatResponse:
        question = str(messages[-1]["content"])
        self.calls.append({"question": question, **options})
        if "goal_image" in question:
            return ChatResponse(IMAGE, "fake", 100, 20, 0.5, 1.0)
        label = question.split("Find the ", 1)[1].split(".", 1)[0]
        return ChatResponse(ONE_STEP.format(name="t", label=label), "fake", 100, 20, 0.5, 1.0)


def test_the_generator_fills_one_block_per_goal_with_a_budget_each(tmp_path) -> None:
    backend = _Backend()
    generator = LLMProgramGenerator(
        "local", "fake", backend, "llm", cache=ProgramCache(tmp_path), goal_blocks=True
    )
    instruction = "Find the chair, then find the object shown in goal_images[0], then find the chair."
    record = generator.generate("goat", instruction)
    assert record.program is not None and record.fallback_reason is None
    assert [c["question"].splitlines()[0] for c in backend.calls] == [
        "Question: Find the chair.",
        "Question: Find the object shown in goal_image.",
    ]  # the third goal repeats the first: its block comes from the cache
    budget = generator.reply_budget(generator.prompt("goat"), "Find the chair.")
    assert [c["max_tokens"] for c in backend.calls] == [budget, budget] and 96 <= budget < 200
    assert [b["cached"] for b in record.blocks] == [False, False, True]
    assert len(record.attempts) == 2 and record.completion_tokens == 40
    assert record.program.count("stop()") == 9  # each goal: memory first, its own guarded stop, the one after
    again = generator.generate("goat", instruction)
    assert again.program == record.program and len(backend.calls) == 2


def test_the_reply_budget_grows_with_the_goals_when_blocks_are_off(tmp_path) -> None:
    backend = _Backend()
    generator = LLMProgramGenerator("local", "fake", backend, "llm", cache=ProgramCache(tmp_path))
    prompt = generator.prompt("goat")
    one = generator.reply_budget(prompt, "Find the chair.")
    assert generator.reply_budget(prompt, "Find the chair, then find the bed, then find the tv.") == 3 * one
