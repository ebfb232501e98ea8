"""TANGO-style programs (written here in the style of GPT-4o-mini's replies for TANGO and of TANGO's own prompts)
that go beyond the language: surplus arguments, a target for exploration, a turn angle, f-strings, TANGO's layout
and parameter names, variables named like primitives, Python builtins (tango.programs.compat, .layout)."""

from __future__ import annotations

from typing import Any

import pytest

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter
from tango.programs.errors import ProgramError
from tango.programs.parser import parse
from tests.programs.fake_world import FakeWorld, apartment


def run(text: str, steps: int = 400) -> tuple[Any, FakeWorld]:
    """Parse and run `text` on the test apartment; the program's value and the world after it."""
    world = apartment(Budget(max_steps=steps))
    result = Interpreter("habitat").run(parse(text), AgentContext(agent=world, budget=world.budget))
    assert result.error is None, result.error
    return result.value, world


EXPLORE_TARGET = """# search for the sofa
explore_scene('sofa')
sofa = detect('sofa')
if is_found(sofa):
    navigate_to(sofa)
    return answer('what color is the sofa?')
"""
TURN = """explore_scene()
sink = detect('sink')
if is_found(sink):
    navigate_to(sink)
    look_right(90)
    return answer('what is to the right of the sink?')
"""
SURPLUS = """explore_scene()
towel = detect('towel', 'bathroom')
if is_found(towel):
    navigate_to(towel, 'bathroom', 1.0)
    return answer('where is the towel?')
"""
FSTRING = """explore_scene()
chairs = detect('chair')
if is_found(chairs):
    n = count(chairs)
    return f"there are {n} chairs"
"""


def test_a_target_for_exploration_scores_the_map_before_the_search():
    program = parse(EXPLORE_TARGET)
    assert program.source.splitlines()[0] == "map_scene('sofa')"
    assert program.source.splitlines()[1] == "while explore_scene():"
    assert program.warnings and "line 2" in program.warnings[0] and "map_scene('sofa')" in program.warnings[0]


def test_a_target_in_a_loop_condition_moves_before_the_loop():
    program = parse(
        "x = detect('bed')\nwhile not is_found(x) and explore_scene('bed'):\n    x = detect('bed')\n"
    )
    lines = program.source.splitlines()
    assert lines[1] == "map_scene('bed')" and lines[2] == "while not is_found(x) and explore_scene():"


def test_a_target_that_is_not_a_text_is_dropped_with_a_warning():
    program = parse("room = detect('bedroom')\nexplore_scene(room)\nbed = detect('bed')\n")
    assert "map_scene" not in program.source and "while explore_scene():" in program.source
    assert program.warnings == ("line 2: explore_scene() takes 0 argument(s); ignored room",)


def test_a_turn_angle_is_kept_with_its_meaning():
    program = parse(TURN)
    assert "look_right(90)" in program.source and program.warnings == ()


def test_a_turn_angle_turns_by_that_angle():
    _, world = run("look_right(90)\nlook_left(60)\nlook_right()\n")
    assert world.actions == ["turn_right"] * 3 + ["turn_left"] * 2 + ["turn_right"]


def test_surplus_arguments_are_dropped_with_a_warning_naming_them():
    program = parse(SURPLUS)
    assert "detect('towel')" in program.source and "navigate_to(towel)" in program.source
    assert program.warnings == (
        "line 2: detect() takes 1 argument(s); ignored 'bathroom'",
        "line 4: navigate_to() takes 1 argument(s); ignored 'bathroom', 1.0",
    )


def test_an_f_string_becomes_concatenation():
    program = parse(FSTRING)
    assert "return 'there are ' + str(n) + ' chairs'" in program.source


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("look_right(90, 2)\nfly()\n", "unknown primitive 'fly'"),
        ("x = f'{undefined_name}'\n", "name 'undefined_name' is not defined"),
        ("explore_scene(target='x')\n", "has no parameter 'target'"),
        ("n = 1\nx = f'{n!r}'\n", "conversion other than !s"),
        ("n = 1\nw = 3\nx = f'{n:{w}}'\n", "replacement field"),
        ("x = detect('bed')\nif is_found(x):\nnavigate_to(x)\n", "syntax error"),
        ("x = detect('bed')\nif is_found(x)\nnavigate_to(x)\n", "syntax error"),
        ("goal_image = 1\n", "cannot assign to 'goal_image'"),
        ("x = detect(target_name='bed', size=2)\n", "has no parameter 'size'"),
    ],
)
def test_everything_else_is_still_refused_with_its_line(text, reason):
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert reason in str(caught.value) and caught.value.line is not None


def test_check_raw_passes_a_surplus_argument_and_prints_its_warning(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "reply.txt"
    path.write_text(SURPLUS)
    done = subprocess.run([sys.executable, "-m", "tango.programs", "check", "--raw", str(path)], capture_output=True,
                          text=True, check=False, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("ok ")
    assert "warning" in done.stderr and "ignored 'bathroom'" in done.stderr


DOUBLE_COLON = """
# search for the object
explore_scene()
chair = detect('chair')
if is_found(chair)::
    # navigate to it and stop
    navigate_to(chair)
    return
"""
NO_COLON = (
    "explore_scene()\nbed = detect('bed')\nif is_found(bed)\n    navigate_to(bed)\n    return 'found'\n"
)
DEEPER_LINES = """explore_scene()
kitchen = detect("kitchen")

    if is_found(kitchen):
        # search for the fridge in the kitchen
        explore_scene()
        fridge = detect("refrigerator")

        if is_found(fridge):
\t        # tab-indented comment, as in TANGO's example prompt
            navigate_to(fridge)
            return answer("what colour is the refrigerator?")
"""


def test_a_header_with_two_colons_reads_as_one_and_runs():
    program = parse(DOUBLE_COLON)
    assert "    if is_found(chair):" in program.source.splitlines()
    assert len(program.warnings) == 1 and program.warnings[0].startswith(
        "line 5: a block header with no colon"
    )
    _, world = run(DOUBLE_COLON)
    assert world.actions[-1] == "navigate" and world.position == (4.0, 0.0, 0.5)


def test_a_header_without_its_colon_before_a_deeper_line_gets_one():
    value, world = run(NO_COLON)
    assert value == "found" and world.position == (16.0, 0.0, 0.0)


def test_lines_indented_deeper_than_the_line_before_run_next_as_in_tango():
    program = parse(DEEPER_LINES)
    lines = program.source.splitlines()
    assert lines[:2] == ["while explore_scene():", "    kitchen = detect('kitchen')"]
    assert lines[2] == "    if is_found(kitchen):" and lines[3] == "        while explore_scene():"
    assert any(
        "indentation is read as TANGO reads it" in w and w.startswith("line 4:") for w in program.warnings
    )
    value, world = run(DEEPER_LINES)
    assert value == "white" and world.position == (5.0, 0.0, -0.5)


def test_a_floor_change_prefix_with_its_stray_space_runs_first():
    value, world = run("go_upstairs()\n explore_scene()\nbed = detect('bed')\nif is_found(bed):\n"
                       "    navigate_to(bed)\n    return 'here'\n")  # fmt: skip
    assert value == "here" and world.position == (16.0, 0.0, 0.0)


def test_a_variable_named_like_a_primitive_is_renamed_and_the_primitive_still_runs():
    text = 'explore_scene()\nchair = detect("chair")\nif is_found(chair):\n    navigate_to(chair)\n' \
           '    answer = answer("what color is the chair?")\n    count = count(chair)\n' \
           "    return eval(\"{answer} + ' ' + str({count})\")\n"  # fmt: skip
    program = parse(text)
    assert "answer_value = answer('what color is the chair?')" in program.source
    assert "count_value = count(chair)" in program.source and "{answer_value}" in program.source
    assert "{count_value}" in program.source
    assert [w.split(":")[0] for w in program.warnings] == ["line 5", "line 6"]
    value, _ = run(text)
    assert value == "red 1"


def test_tango_parameter_names_are_ours():
    text = "explore_scene()\nc = detect(target_name='couch')\nif is_found(target=c):\n" \
           "    navigate_to(target_object=c)\n    return describe_scene(type='frontal')\n"  # fmt: skip
    program = parse(text)
    assert "detect(label='couch')" in program.source and "navigate_to(target=c)" in program.source
    assert "describe_scene(view='frontal')" in program.source and program.warnings == ()
    _, world = run(text)
    assert world.position == (9.0, 0.0, 0.0)


def test_python_builtins_tango_evaluates_run_with_their_meaning():
    text = "explore_scene()\nchairs = detect('chair')\nif len(chairs) == 2:\n" \
           "    sizes = sorted([3, 1, 2])\n    return [list(chairs)[0].label if False else 'x', sum(sizes), sizes, " \
           "any([0, 1]), all([0, 1]), bool(chairs)]\n"  # fmt: skip
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert "attribute access" in str(caught.value) and caught.value.line == 5
    text = "explore_scene()\nchairs = detect('chair')\nif len(chairs) == 2:\n" \
           "    sizes = sorted([3, 1, 2])\n    return [len(list(chairs)), sum(sizes), sizes, any([0, 1]), " \
           "all([0, 1]), bool(chairs)]\n"  # fmt: skip
    value, _ = run(text)
    assert value == [2, 6, [1, 2, 3], True, False, True]


def test_builtins_tango_accepts_are_not_offered_to_a_model():
    from tango.programs.grammar import program_grammar

    grammar = program_grammar("habitat")
    assert '"len("' in grammar and '"sorted("' not in grammar and '"format("' not in grammar


def test_an_f_string_format_spec_formats_the_value():
    value, _ = run("d = 2.5\nn = 3\nreturn f'{d:.2f} m, {n!s} chairs, {n:>3}'\n")
    assert value == "2.50 m, 3 chairs,   3"


def test_a_format_spec_past_two_digits_is_refused_with_its_line():
    with pytest.raises(ProgramError) as caught:
        parse("d = 2.5\nx = 1\ny = f'{d:.200f}'\n")
    assert caught.value.line == 3 and "format spec '.200f'" in caught.value.reason
    world = apartment(Budget(max_steps=10))
    result = Interpreter("habitat").run(parse("d = 2.5\ns = '.200f'\ny = format(d, s)\n"),
                                        AgentContext(agent=world, budget=world.budget))  # fmt: skip
    assert result.error_line == 3 and result.error is not None and "format spec" in result.error


def test_check_raw_reads_a_json_file_of_replies_and_counts_them(tmp_path):
    import json
    import subprocess
    import sys

    replies = {
        "question_1": {"generated_code": DOUBLE_COLON},
        "question_2": {"generated_code": "look_behind()\n"},
    }
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(replies))
    done = subprocess.run([sys.executable, "-m", "tango.programs", "check", "--raw", "--field", "generated_code",
                           str(path)], capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[0] == f"ok {path}#question_1"
    assert lines[1].startswith(f"error {path}#question_2:1: unknown primitive 'look_behind'")
    assert done.stderr.splitlines()[-1] == "1 of 2 replies ok (50.0%)"


def test_text_methods_tango_evaluates_run_with_their_meaning():
    text = 'ans = answer("what color is it?")\nwords = ans.upper().strip().split()\n' \
           'if "red" in ans.lower() and ans.startswith("r"):\n' \
           '    return [", ".join(words + ["x"]).replace("x", "y"), eval("{ans}.title()")]\n'  # fmt: skip
    program = parse(text)
    assert "words = text_split(text_strip(text_upper(ans)))" in program.source
    value, _ = run(text)
    assert value == ["RED, y", "Red"]


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("c = detect('chair')\nx = c.lower()\n", 2, ".lower() is a method of texts, not of list"),
        ("x = 'a' * 5000\ny = x.replace('a', 'aaa')\n", 2, "15000 characters long"),
        ("x = ', '.join([1, 2])\n", 1, "needs a list of texts"),
    ],
)
def test_a_text_method_on_anything_else_or_past_the_size_limit_fails_at_its_line(text, line, reason):
    world = apartment(Budget(max_steps=10))
    result = Interpreter("habitat").run(parse(text), AgentContext(agent=world, budget=world.budget))
    assert result.error_line == line and result.error is not None and reason in result.error


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x = 'a {0}'.format(1)\n", "attribute access"),
        ("c = detect('chair')\nc.append(1)\n", "attribute access"),
        ("x = 'a'\ny = x.lower\n", "attribute access"),
    ],
)
def test_other_attributes_are_still_refused_with_their_line(text, reason):
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert reason in caught.value.reason and caught.value.line == text.count("\n")


def test_a_line_between_levels_takes_tangos_level_of_its_indentation():
    program = parse("x = detect('bed')\nif is_found(x)::\n    navigate_to(x)\n  return 'a'\n")
    assert program.source.splitlines()[-1] == "return 'a'"
    value, world = run("x = detect('bed')\nif is_found(x)::\n    navigate_to(x)\n  return 'a'\n")
    assert value == "a" and world.position == (0.0, 0.0, 0.0)


COMPREHENSIONS = """explore_scene()
chairs = detect('chair')
if is_found(chairs) and any(count([c]) > 0 for c in chairs):
    c = 'kept'
    near = [o for o in chairs if count([o]) > 0]
    pairs = [[a, b] for a in range(3) for b in range(a) if a + b > 1]
    return [len(near) == len(chairs) > 0, pairs, c, sum([x * 2 for x in [1, 2]])]
"""


def test_comprehensions_run_as_for_loops_without_touching_the_programs_names():
    program = parse(COMPREHENSIONS)
    assert "for item_" in program.source and "[o for o" not in program.source
    value, _ = run(COMPREHENSIONS)
    assert value == [True, [[2, 0], [2, 1]], "kept", 6]


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (
            "xs = [1]\nwhile any(x > 0 for x in xs):\n    xs = []\n",
            2,
            "generator expressions are not allowed",
        ),
        ("xs = [1]\nys = {x for x in xs}\n", 2, "comprehensions are not allowed"),
        ("xs = [[1, 2]]\nys = [a for a, b in xs]\n", 2, "comprehensions are not allowed"),
    ],
)
def test_comprehensions_evaluated_more_than_once_or_not_lists_are_refused_with_their_line(text, line, reason):
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert caught.value.line == line and reason in caught.value.reason


def test_percent_formatting_gives_pythons_text():
    n, name = 3.7, "bed"
    text = "n = 3.7\nname = 'bed'\nreturn ['%s: %d chairs, %.2f m, %5.1f%%, %-4s|' % (name, n, n, n, 'ab'), 7 % 3]\n"
    program = parse(text)
    assert "str(name) + ': ' + format(int(n), 'd')" in program.source
    value, _ = run(text)
    assert value == ["%s: %d chairs, %.2f m, %5.1f%%, %-4s|" % (name, n, n, n, "ab"), 1]  # noqa: UP031


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x = 1\ny = '%r' % x\n", "the %-format '%r'"),
        ("x = 1\ny = '%(a)s' % x\n", "mapping key"),
        ("x = 1\ny = '%s and %s' % x\n", "more %-fields than values"),
        ("x = 1\ny = '%s' % (x, x)\n", "more values than %-fields"),
        ("x = 1\ny = '%200d' % x\n", "two digits at most"),
    ],
)
def test_percent_formats_outside_the_rewrite_are_refused_with_their_line(text, reason):
    with pytest.raises(ProgramError) as caught:
        parse(text)
    assert caught.value.line == 2 and reason in caught.value.reason


def test_a_header_over_several_lines_with_two_colons_reads_as_one():
    program = parse(
        "a = detect('bed')\n  b = 2\nif (is_found(a) and\n        b > 1)::  # both\n    return 1\n"
    )
    assert program.source.splitlines()[-2:] == ["if is_found(a) and b > 1:", "    return 1"]
