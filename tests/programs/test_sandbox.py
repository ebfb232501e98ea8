"""The sandbox corpus: hostile or broken programs are rejected with a ProgramError or stopped by a cap with a
clear reason; none hangs (pytest-timeout), crashes the process, opens files or runs code via exec."""

from __future__ import annotations

import sys

import pytest

from tango.primitives import get_toolbox
from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, ProgramError, StopReason, Trace, parse
from tests.programs.fake_world import apartment

REJECTED = [
    ("import", "import os\nos.system('ls')\n", "imports are not allowed"),
    ("from_import", "from os import system\n", "imports are not allowed"),
    ("dunder_import", "__import__('os')\n", "underscore"),
    ("exec", "exec('x = 1')\n", "calling 'exec' is not allowed"),
    ("open", "open('/tmp/tango_sandbox_probe', 'w')\n", "calling 'open' is not allowed"),
    ("getattr", "getattr(detect, 'x')\n", "calling 'getattr' is not allowed"),
    ("attribute", "x = detect('a')\ny = x.label\n", "attribute access"),
    ("dunder_attribute", "x = [].__class__\n", "attribute access"),
    ("builtins_name", "x = __builtins__\n", "underscore"),
    ("list_comprehension", "x = [i for i in range(3)]\n", "comprehensions are not allowed"),
    ("generator", "x = len(i for i in range(3))\n", "generator expressions are not allowed"),
    ("lambda", "f = lambda: 1\n", "lambdas are not allowed"),
    ("def", "def f():\n    return 1\n", "function definitions"),
    ("decorated_def", "@primitive\ndef f(ctx):\n    pass\n", "function definitions"),
    ("class", "class A:\n    pass\n", "class definitions"),
    ("with", "with open('x') as f:\n    pass\n", "with statements"),
    ("try", "try:\n    x = 1\nexcept Exception:\n    pass\n", "try/except"),
    ("global", "global x\n", "global is not allowed"),
    ("delete", "x = 1\ndel x\n", "del is not allowed"),
    ("raise", "raise ValueError('x')\n", "raise is not allowed"),
    ("walrus", "y = (x := 5)\n", "walrus"),
    ("fstring_format_spec", "x = f'{1:>100000000}'\n", "format spec"),
    ("power_bomb", "x = 10 ** 10 ** 10\n", "power operator"),
    ("dict", "x = {'a': 1}\n", "dict literals"),
    ("starred", "detect(*['a'])\n", "star arguments"),
    ("double_star", "detect(**x)\n", "**keyword arguments"),
    ("unknown_primitive", "fly_to('moon')\n", "unknown primitive 'fly_to'"),
    ("wrong_arity", "navigate_to()\n", "navigate_to() takes 1 argument, got 0"),
    ("call_variable", "f = 1\nf()\n", "is a variable"),
    ("shadow_open", "open = 1\nopen('x')\n", "calling 'open' is not allowed"),
    (
        "deep_blocks",
        "".join("    " * i + "if True:\n" for i in range(20)) + "    " * 20 + "pass\n",
        "nested more",
    ),
    ("deep_parens", "x = " + "(" * 300 + "1" + ")" * 300 + "\n", ""),
    ("long_expression", "x = " + " + ".join(["1"] * 500) + "\n", "nested more"),
    ("huge_program", "x = 1\n" * 5000, "characters long"),
    ("null_byte", "x = 1\x00\n", ""),
    ("match", "match x:\n    case 1:\n        pass\n", ""),
    ("yield", "yield 1\n", "yield"),
]

STOPPED = [
    (
        "eval_dunder_import",
        "x = eval(\"__import__('os')\")\n",
        StopReason.PRIMITIVE_ERROR,
        "may call only",
    ),
    (
        "eval_open",
        "x = eval(\"open('/tmp/tango_sandbox_probe', 'w')\")\n",
        StopReason.PRIMITIVE_ERROR,
        "may call only",
    ),
    ("eval_attribute", "x = eval(\"''.join\")\n", StopReason.PRIMITIVE_ERROR, "attribute access"),
    ("eval_primitive_call", 'x = eval("explore_scene()")\n', StopReason.PRIMITIVE_ERROR, "may call only"),
    ("eval_statement", "x = eval('y = 1')\n", StopReason.PRIMITIVE_ERROR, "not an expression"),
    ("eval_power_bomb", "x = eval('10 ** 10 ** 10')\n", StopReason.PRIMITIVE_ERROR, "power operator"),
    ("eval_string_bomb", "x = eval(\"'a' * 1000000000\")\n", StopReason.PRIMITIVE_ERROR, "exceeds the limit"),
    ("while_true", "while True:\n    pass\n", StopReason.LOOP_CAP, "iteration cap"),
    ("huge_for", "for i in range(1000000):\n    pass\n", StopReason.LOOP_CAP, "iteration cap"),
    (
        "huge_range",
        "for i in range(1000000000000):\n    pass\n",
        StopReason.RUNTIME_ERROR,
        "exceeds the limit",
    ),
    (
        "nested_loops",
        "for i in range(1000):\n    for j in range(1000):\n        x = i\n",
        StopReason.STATEMENT_BUDGET,
        "",
    ),
    ("string_bomb", "x = 'a' * 1000000000\n", StopReason.RUNTIME_ERROR, "exceeds the limit"),
    (
        "string_doubling",
        "x = 'ab'\nwhile True:\n    x = x + x\n",
        StopReason.RUNTIME_ERROR,
        "exceeds the limit",
    ),
    ("list_doubling", "x = [1]\nwhile True:\n    x = x + x\n", StopReason.RUNTIME_ERROR, "exceeds the limit"),
    (
        "int_doubling",
        "x = 1\nwhile x > 0:\n    x = x * x + 2\n",
        StopReason.RUNTIME_ERROR,
        "integer too large",
    ),
    ("format_bomb", "x = '%0999999999d' % 1\n", StopReason.RUNTIME_ERROR, "string formatting"),
    ("max_range", "x = max(range(1000000))\n", StopReason.RUNTIME_ERROR, "too long to scan"),
    ("int_string", "x = int('9' * 30)\n", StopReason.RUNTIME_ERROR, "longer than 20"),
    ("zero_division", "x = 1 // 0\n", StopReason.RUNTIME_ERROR, "ZeroDivisionError"),
    (
        "endless_turning",
        "while classify_room() != 'moon':\n    turn_left()\n",
        StopReason.STEP_BUDGET,
        "step budget",
    ),
    ("endless_search", "explore_scene()\nx = detect('unicorn')\n", StopReason.STEP_BUDGET, "step budget"),
    ("endless_look_around", "while True:\n    look_around()\n", StopReason.STEP_BUDGET, "step budget"),
    ("call_flood", "while True:\n    count([])\n", StopReason.LOOP_CAP, "iteration cap"),
    ("shared_list_doubling", "x = [1]\nwhile True:\n    x = [x, x]\n", StopReason.RUNTIME_ERROR, "nested"),
    ("deep_list_chain", "x = [1]\nwhile True:\n    x = [x]\n", StopReason.RUNTIME_ERROR, "nested more than"),
    (
        "compare_list_dags",
        "a = [1]\nb = [1]\nfor i in range(40):\n    a = [a, a, a]\n    b = [b, b, b]\nreturn a == b\n",
        StopReason.RUNTIME_ERROR,
        "exceed the limit",
    ),
    # one statement that would take minutes or gigabytes: refused before the work is done
    (
        "round_digits",
        "x = round(5, -100000000)\n",
        StopReason.RUNTIME_ERROR,
        "digits must be an integer within ±20",
    ),
    (
        "round_digits_max",
        "x = round(5, -9223372036854775807)\n",
        StopReason.RUNTIME_ERROR,
        "digits must be an integer within ±20",
    ),
    ("round_digits_float", "x = round(5, 0.5)\n", StopReason.RUNTIME_ERROR, "digits"),
    (
        "str_of_nested",
        's = "\\U000e0001" * 10000\nl = [s] * 10000\nm = [l] * 9\nt = str(m)\n',
        StopReason.RUNTIME_ERROR,
        "at least 900090009 characters",
    ),
    ("str_of_repeated", 'l = ["a" * 10000] * 10000\nt = str(l)\n', StopReason.RUNTIME_ERROR, "at least"),
    (
        "compare_huge_lists",
        (
            'a = "x" * 10000\nb = "x" * 9999 + "x"\nma = [[a] * 10000] * 9\nmb = [[b] * 10000] * 9\n'
            "for i in range(1000):\n    for j in range(99):\n        c = ma == mb\n"
        ),
        StopReason.WORK_BUDGET,
        "'==' needs 1,800,180,020",
    ),
    (
        "membership_in_huge_list",
        'la = ["x" * 10000] * 10000\nwhile True:\n    c = ("x" * 9999 + "y") in la\n',
        StopReason.WORK_BUDGET,
        "'in' needs",
    ),
    (
        "min_of_huge_lists",
        'm = [["x" * 10000] * 10000, ["x" * 9999 + "x"] * 10000]\nwhile True:\n    c = min(m)\n',
        StopReason.WORK_BUDGET,
        "min()",
    ),
    (
        "substring_search_loop",
        's = "ab" * 5000\nfor i in range(1000):\n    for j in range(99):\n        c = ("ab" * 2000 + "c") in s\n',
        StopReason.WORK_BUDGET,
        "work budget of 10,000,000 units",
    ),
    (
        "text_in_huge_range",
        "r = range(1000000)\nfor i in range(1000):\n    for j in range(99):\n        c = 'a' in r\n",
        StopReason.WORK_BUDGET,
        "'in' needs 1,000,003",
    ),
    (
        "eval_placeholder_flood",
        'l = ["a" * 10000] * 10000\nx = eval("{l} == 1")\n',
        StopReason.PRIMITIVE_ERROR,
        "at least",
    ),
    (
        "growing_distinct_strings",
        'keep = []\nfor i in range(1000):\n    for j in range(99):\n        keep = keep + ["a" * 9990 + str(i)]\n',
        StopReason.WORK_BUDGET,
        "work budget of 10,000,000 units",
    ),
]

AUDITED = {"open", "os.system", "subprocess.Popen", "exec", "socket.connect", "os.remove", "shutil.rmtree"}
_events: list[str] = []
_recording = [False]


def _audit(event: str, args: tuple) -> None:
    if _recording[0] and event in AUDITED:
        _events.append(event)


sys.addaudithook(_audit)


def run_guarded(source: str):
    """Parse and run with file/exec/process audit events recorded."""
    box = get_toolbox("habitat")
    budget = Budget(max_steps=60, max_loop_iterations=1000, max_statements=20_000, max_wall_s=20.0)
    ctx = AgentContext(agent=apartment(budget), budget=budget, trace=Trace())
    _events.clear()
    _recording[0] = True
    try:
        program = parse(source, toolbox=box)
        return Interpreter(box).run(program, ctx)
    finally:
        _recording[0] = False


def test_the_corpus_has_at_least_thirty_programs():
    assert len(REJECTED) + len(STOPPED) >= 30


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("name", "source", "reason"), REJECTED, ids=[case[0] for case in REJECTED])
def test_hostile_program_is_rejected(name, source, reason):
    with pytest.raises(ProgramError) as caught:
        run_guarded(source)
    assert reason in str(caught.value)
    assert caught.value.reason
    assert _events == []


@pytest.mark.timeout(20)
@pytest.mark.parametrize(("name", "source", "stop", "reason"), STOPPED, ids=[case[0] for case in STOPPED])
def test_hostile_program_is_stopped_with_a_clear_reason(name, source, stop, reason):
    result = run_guarded(source)
    assert result.stop_reason == stop
    assert result.error and result.error.startswith("line ")
    assert reason in result.error
    assert _events == []


def test_the_audit_guard_would_see_a_file_being_opened(tmp_path):
    _events.clear()
    _recording[0] = True
    try:
        (tmp_path / "probe.txt").write_text("x")
    finally:
        _recording[0] = False
    assert "open" in _events
