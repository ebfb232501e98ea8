"""TANGO-style programs (written here in the style of GPT-4o-mini's replies for TANGO) that go beyond the
language: surplus arguments, a target for exploration, a turn angle, f-strings (tango.programs.compat)."""

from __future__ import annotations

import pytest

from tango.programs.errors import ProgramError
from tango.programs.parser import parse

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
        ("n = 1\nx = f'{n:.2f}'\n", "format spec"),
        ("look_right(90, 2)\nfly()\n", "unknown primitive 'fly'"),
        ("x = f'{undefined_name}'\n", "name 'undefined_name' is not defined"),
        ("explore_scene(target='x')\n", "has no parameter 'target'"),
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
