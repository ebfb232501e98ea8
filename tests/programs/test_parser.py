"""The parser: what LLM replies it accepts, the canonical form, search loops, and what it rejects."""

from __future__ import annotations

import ast

import pytest

from tango.programs import ProgramError, extract_program_text, parse

PAPER_STYLE = """Program:
explore_scene()
chair = detect('chair')
if is_found(chair):
    navigate_to(chair)
    stop()
"""


def test_canonical_source_is_a_fixed_point():
    program = parse(PAPER_STYLE)
    assert parse(program.source).source == program.source
    assert program.toolbox == "habitat"


def test_explore_followed_by_statements_becomes_a_visible_search_loop():
    program = parse(PAPER_STYLE)
    assert program.source.splitlines()[0] == "while explore_scene():"
    loop = program.tree.body[0]
    assert isinstance(loop, ast.While)
    assert [type(s).__name__ for s in loop.body] == ["Assign", "If"]


def test_explore_inside_a_block_becomes_a_loop_over_the_rest_of_that_block():
    program = parse(
        "x = 1\nif x == 1:\n    explore_scene()\n    a = detect('bed')\n    if is_found(a):\n        stop()\n"
    )
    inner = program.tree.body[1]
    assert isinstance(inner, ast.If) and isinstance(inner.body[0], ast.While)


def test_a_trailing_explore_call_stays_a_single_step():
    program = parse("explore_scene()\n")
    assert program.source == "explore_scene()\n"


def test_markdown_fence_program_line_comments_and_curly_quotes_are_accepted():
    reply = "Sure! Here it is:\n```python\nProgram:\n# look first\nx = detect(\u2018sofa\u2019)\nreturn\n```\nHope it helps."
    program = parse(reply)
    assert program.source == "x = detect('sofa')\nreturn\n"


def test_program_on_the_same_line_and_a_following_question_is_cut():
    text, offset = extract_program_text("Program: stop()\nQuestion: find a bed\nProgram:\nstop()")
    assert text.strip() == "stop()"
    assert parse("Question: Find a bed\nProgram:\nstop()\nQuestion: next one").source == "stop()\n"
    assert offset >= 0


def test_return_with_and_without_value_and_every_construct():
    source = """
a = 1
b = a + 2 * 3 - 4 // 2 % 3 / 1
a += 1
names = ['chair', 'bed']
for name in names:
    if name == 'bed' and not a < 0 or a is None:
        continue
    elif name in ['x'] or name != 'y':
        pass
    else:
        break
while a < 5:
    a = a + 1
    if a == 4:
        break
first = names[0]
part = names[0:1]
c = abs(-1) if len(names) > 1 else max(1, 2)
return str(round(min(b, 3.5), 1)) + first
"""
    program = parse(source)
    assert "for name in names:" in program.source
    assert parse("return\n").source == "return\n"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("x = 1\nimport os\n", 2, "imports are not allowed"),
        ("x = detect('a')\ny = x.label\n", 2, "attribute access"),
        ("x = 1\n\n\ny = exec('1')\n", 4, "calling 'exec' is not allowed"),
        ("fly()\n", 1, "unknown primitive 'fly'"),
        ("detect(label='a', target='b')\n", 1, "detect() has no parameter 'target'"),
        ("navigate_to()\n", 1, "navigate_to() takes 1 argument, got 0"),
        ("detect(labl='a')\n", 1, "has no parameter 'labl'"),
        ("x = y + 1\n", 1, "name 'y' is not defined"),
        ("x = detect\n", 1, "'detect' must be called"),
        ("goal_image = 1\n", 1, "cannot assign to 'goal_image'"),
        ("x = 2 ** 10\n", 1, "power operator"),
        ("x = 2\ny = f'{x!r}'\n", 2, "a conversion other than !s"),
        ("x = {'a': 1}\n", 1, "dict literals are not allowed"),
        ("break\n", 1, "'break' outside a loop"),
        ("x = 1\nx = 1 +\n", 2, "syntax error"),
        ("", 1, "empty"),
        ("x = 1\nx()\n", 2, "'x' is a variable, not a primitive"),
        ("for i in range(3):\n    pass\nelse:\n    pass\n", 1, "for/else is not allowed"),
        ("a, b = 1, 2\n", 1, "only assignment to plain names"),
    ],
)
def test_rejections_name_line_and_reason(text, line, reason):
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert caught.value.line == line
    assert reason in caught.value.reason


def test_line_numbers_count_the_lines_of_the_reply_before_the_program():
    with pytest.raises(ProgramError) as caught:
        parse("Here you go\n```python\nx = 1\nimport os\n```")
    assert caught.value.line == 4


def test_goal_inputs_are_readable_without_assignment():
    program = parse("objs = match(goal_image)\nif not is_found(objs):\n    objs = match(goal_description)\n")
    assert "match(goal_image)" in program.source


def test_each_bare_explore_starts_a_new_search_phase_and_a_final_return_runs_after_it():
    source = "explore_scene()\na = detect('a')\nexplore_scene()\nb = detect('b')\nreturn b\n"
    program = parse(source)
    assert (
        program.source
        == "while explore_scene():\n    a = detect('a')\nwhile explore_scene():\n    b = detect('b')\nreturn b\n"
    )


def test_a_program_starting_on_the_program_line_keeps_its_indentation_valid():
    program = parse("Program: x = detect('a')\nif is_found(x):\n    stop()\n")
    assert program.source == "x = detect('a')\nif is_found(x):\n    stop()\n"


def test_a_first_goal_repeated_after_other_goals_is_kept_and_a_copy_cut_inside_a_block_is_dropped():
    picture = "t = recall('picture')\nwhile not is_found(t) and explore_scene():\n    t = detect('picture')\nstop()\n"
    chair = picture.replace("picture", "chair")
    assert parse(picture + chair + picture).source.count("stop()") == 3
    cut = "explore_scene()\nx = detect('bed')\nif is_found(x):\n    navigate_to(x)\n    stop()\n"
    assert parse(cut + cut.rsplit("    navigate_to", 1)[0]).source.count("stop()") == 1
