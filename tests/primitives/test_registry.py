"""The registry: @primitive records name, signature and docstring into toolboxes that drive parse and prompt."""

from __future__ import annotations

import pytest

from tango.primitives import REGISTRY, RegistryError, define_input, get_toolbox, isolated, primitive
from tango.primitives.context import AgentContext
from tango.programs import Interpreter, ProgramError, parse
from tango.programs.grammar import program_grammar
from tango.programs.prompt import build_prompt


def test_habitat_toolbox_has_the_built_in_primitives():
    box = get_toolbox("habitat")
    expected = {
        "explore_scene",
        "detect",
        "is_found",
        "navigate_to",
        "count",
        "answer",
        "match",
        "classify_room",
        "look_around",
        "look_up",
        "look_down",
        "turn_left",
        "turn_right",
        "stop",
        "recall",
    }
    assert expected <= set(box.primitives)
    assert box.get("explore_scene").explores and box.get("stop").ends_search
    assert box.get("detect").signature() == "detect(label: str) -> list[ObjectHandle]"


def test_a_new_toolbox_validates_its_own_programs_and_generates_its_prompt(tmp_path):
    with isolated():

        @primitive(toolbox="maze")
        def move(ctx, direction: str, times: int = 1) -> bool:
            """Move in a direction ('left', 'front', 'right') a number of times."""
            ctx.shared.setdefault("moves", []).extend([direction] * times)
            return True

        define_input("maze", "goal_name", "str", "the name of the goal node")
        box = get_toolbox("maze")
        program = parse("move('left')\nmove('front', times=2)\nreturn goal_name\n", toolbox="maze")
        ctx = AgentContext(agent=None, inputs={"goal_name": "G"})
        result = Interpreter(box).run(program, ctx)
        assert result.value == "G" and ctx.shared["moves"] == ["left", "front", "front"]
        with pytest.raises(ProgramError, match="unknown primitive 'detect'"):
            parse("detect('chair')\n", toolbox="maze")
        (tmp_path / "maze").mkdir()
        (tmp_path / "maze" / "system.txt").write_text("Mazes.\n{api}\n")
        (tmp_path / "maze" / "examples.txt").write_text("Question: go left\nProgram:\nmove('left')\n")
        prompt = build_prompt("maze", tmp_path)
        assert "move(direction: str, times: int = 1) -> bool" in prompt.system
        assert "goal_name: str" in prompt.system
    assert "maze" not in REGISTRY.toolboxes


def test_registration_errors_are_explicit():
    with isolated():
        with pytest.raises(RegistryError, match="first parameter must be `ctx`"):

            @primitive(toolbox="t")
            def no_ctx(label: str) -> None:
                """Doc."""

        with pytest.raises(RegistryError, match="needs a docstring"):

            @primitive(toolbox="t")
            def undocumented(ctx) -> None:
                pass

        @primitive(toolbox="t", name="same")
        def first(ctx) -> None:
            """First."""

        with pytest.raises(RegistryError, match="already registered"):

            @primitive(toolbox="t", name="same")
            def second(ctx) -> None:
                """Second."""

    with pytest.raises(RegistryError, match="no primitives registered for toolbox 'nothing'"):
        get_toolbox("nothing")


def test_a_primitive_offered_to_some_tasks_only_is_in_their_prompt_and_grammar_and_parses_everywhere(
    tmp_path,
):
    with isolated():

        @primitive(toolbox="maze")
        def move(ctx, direction: str) -> bool:
            """Move one cell in a direction."""
            return True

        @primitive(toolbox="maze", tasks=("escape",))
        def peek(ctx, direction: str) -> bool:
            """Whether the cell in a direction is free, without moving."""
            return True

        box = get_toolbox("maze")
        assert box.get("peek").offered("escape") and not box.get("peek").offered("visit")
        assert not box.get("peek").offered() and box.get("move").offered("visit")
        (tmp_path / "maze" / "escape").mkdir(parents=True)
        (tmp_path / "maze" / "system.txt").write_text("Mazes.\n{api}\n")
        (tmp_path / "maze" / "examples.txt").write_text("Question: go left\nProgram:\nmove('left')\n")
        (tmp_path / "maze" / "escape" / "examples.txt").write_text(
            "Question: leave\nProgram:\nif peek('left'):\n    move('left')\n"
        )
        escape, visit, plain = (build_prompt("maze", tmp_path, task) for task in ("escape", "visit", None))
        assert "peek(direction: str) -> bool" in escape.system and "peek(" in escape.examples_text
        assert "peek" not in visit.system + visit.examples_text
        assert (visit.system, visit.examples, visit.digest) == (plain.system, plain.examples, plain.digest)
        assert '"peek("' in program_grammar("maze", task="escape")
        assert '"peek("' not in program_grammar("maze", task="visit")
        assert program_grammar("maze", task="visit") == program_grammar("maze")
        assert parse("peek('up')\n", toolbox="maze").source == "peek('up')\n"
