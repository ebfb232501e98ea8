"""The program grammar (tango.programs.grammar) against the parser: what it generates parses."""

from __future__ import annotations

import re

import pytest

from tango.primitives import get_toolbox
from tango.programs.builtins import BUILTINS
from tango.programs.errors import ProgramError
from tango.programs.grammar import GrammarConfig, program_grammar
from tango.programs.parser import parse
from tests.programs.gbnf_sampler import Sampler

VARIABLES = ["x", "objs"]
PRELUDE = "x = 1\nobjs = []\n"


@pytest.mark.parametrize("toolbox", ["habitat", "graphnav"])
def test_the_grammar_calls_exactly_the_offered_primitives_and_builtins(toolbox: str) -> None:
    box = get_toolbox(toolbox)
    called = set(re.findall(r'"([a-z_]+)\("', program_grammar(toolbox)))
    offered = {name for name, spec in box.primitives.items() if spec.offered()}
    assert called == offered | {name for name, builtin in BUILTINS.items() if builtin.offered}


@pytest.mark.parametrize("toolbox", ["habitat", "graphnav"])
def test_every_program_sampled_from_the_grammar_parses(toolbox: str) -> None:
    """400 random derivations (names drawn from assigned variables, which no context-free grammar can know);
    every one is a program of the language with calls of the right arity."""
    text = program_grammar(toolbox, GrammarConfig(max_depth=3, max_lines=8))
    sampler = Sampler(text, {"name": VARIABLES}, seed=7, max_depth=10)
    failures = []
    for _ in range(400):
        program = sampler.sample()
        try:
            parse(PRELUDE + program, toolbox=toolbox)
        except ProgramError as error:
            failures.append((program, str(error)))
    assert failures == []


def test_a_call_with_too_many_arguments_is_outside_the_grammar() -> None:
    """detect takes one argument: its rule has no second; answer takes one or two."""
    text = program_grammar("habitat")
    assert 'p-detect ::= "detect(" expr ")"' in text
    assert 'p-answer ::= "answer(" expr (", " expr)? ")"' in text
    assert 'p-look-up ::= "look_up(" "" ")"' in text


class _Backend:
    """Records each call's keywords; the first reply is invalid, the second valid."""

    accepts_grammar = True
    accepts_options = True

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def complete(self, messages, **options):
        from tango.llm import ChatResponse

        self.calls.append({"messages": len(messages), **options})
        text = "fly()\n" if len(self.calls) == 1 else "explore_scene()\nx = detect('bed')\n"
        return ChatResponse(text, "fake", 10, 3, 0.5, 1.0)


def test_the_generator_sends_the_grammar_the_shared_prefix_and_a_sampled_repair(tmp_path):
    from tango.programs.generators.cache import ProgramCache
    from tango.programs.generators.llm import LLMProgramGenerator

    backend = _Backend()
    generator = LLMProgramGenerator("local", "fake", backend, "llm", cache=ProgramCache(tmp_path), grammar=True,
                                    repair_temperature=0.7)  # fmt: skip
    record = generator.generate("objectnav", "Find a bed.")
    shared = 1 + 2 * len(generator.prompt("objectnav").examples)
    assert [c["shared_prefix"] for c in backend.calls] == [shared, shared]
    assert [c.get("temperature") for c in backend.calls] == [None, 0.7]
    assert all(c["grammar"].startswith("root ::=") for c in backend.calls)
    assert backend.calls[0]["messages"] == shared + 1 and backend.calls[1]["messages"] == shared + 3
    assert record.program is not None and (record.cpu_seconds, record.wall_seconds) == (1.0, 2.0)


def test_strings_leave_out_curly_quotes_and_statements_are_calls_not_bare_names():
    """Found in a run: the model wrote 'kitchen’s' inside a quoted string (the parser reads ’ as ', so the
    string ended early) and `else` without its colon (a bare name is an expression statement)."""
    text = program_grammar("habitat")
    string = next(line for line in text.splitlines() if line.startswith("string ::="))
    assert string.count(r"\u2019") == 2 and string.count(r"\u201d") == 2
    statement = next(line for line in text.splitlines() if line.startswith("stmt-0-0 ::="))
    assert "| call |" in statement and "| expr |" not in statement


def test_an_assignment_target_is_no_else_or_elif():
    """Found in a replan: a misplaced `else` was written as `else = explore_scene()`; names that only start
    like the keywords stay allowed."""
    from tests.programs.gbnf_sampler import parse_gbnf

    rules = parse_gbnf(program_grammar("habitat"))
    assert "target" in rules
    text = program_grammar("habitat")
    statement = next(line for line in text.splitlines() if line.startswith("stmt-0-0 ::="))
    assert 'target " = " expr' in statement and 'name " = "' not in statement
    assert _matches(text, "target", ["else", "elif"]) == [False, False]
    assert (
        _matches(text, "target", ["e", "el", "els", "eli", "elses", "elifs", "elm", "x", "chair_1"])
        == [True] * 9
    )


def _matches(grammar: str, rule: str, words: list[str]) -> list[bool]:
    """Whether each word is a whole match of `rule`, by a regular expression built from the grammar's rules
    (the target rules are regular: literals, classes, `*` and alternatives, each referring only forward)."""
    import re

    rules = {}
    for line in grammar.splitlines():
        if "::=" in line:
            name, body = line.split("::=", 1)
            rules[name.strip()] = body.strip()

    def expand(name: str) -> str:
        body = rules[name]
        out = []
        for token in re.findall(r'"[^"]*"|\[[^\]]*\]|\*|\||[a-z][\w-]*', body):
            if token.startswith('"'):
                out.append(re.escape(token[1:-1]))
            elif token.startswith("[") or token in ("*", "|"):
                out.append(token)
            else:
                out.append(f"(?:{expand(token)})")
        return "".join(out)

    pattern = re.compile(f"(?:{expand(rule)})")
    return [pattern.fullmatch(word) is not None for word in words]
