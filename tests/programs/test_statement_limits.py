"""Limits inside one statement: the work budget, out-of-memory, bounded renderings and the value guard."""

from __future__ import annotations

import sys

import pytest

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, StopReason, Trace, parse
from tango.programs.operations import Operations
from tango.programs.values import MEASURED_LISTS_KEPT, ValueGuard, bounded_text
from tests.programs.fake_world import apartment


def run(source: str, budget: Budget | None = None):
    budget = budget or Budget()
    ctx = AgentContext(agent=apartment(budget), budget=budget, trace=Trace())
    return Interpreter().run(parse(source), ctx), budget


def test_work_budget_adds_up_small_comparisons_and_stops_before_the_one_that_passes_it():
    source = 'a = ["x" * 100] * 100\nb = ["x" * 99 + "x"] * 100\nfor i in range(1000):\n    c = a == b\n'
    result, budget = run(source, Budget(max_work=1_000_000))
    assert result.stop_reason == StopReason.WORK_BUDGET
    per_compare = 2 * (1 + 100 + 100 * 100)
    compares_done = (budget.work - per_compare - 2 * 101 - 200) // per_compare
    assert 45 <= compares_done <= 50
    assert "work budget of 1,000,000 units" in (result.error or "")


def test_identity_tests_cost_nothing_and_a_normal_program_uses_little_work():
    source = (
        "x = detect('chair')\nfor i in range(50):\n    if x is None:\n        stop()\n    y = [i, i + 1]\n"
    )
    result, budget = run(source)
    assert result.ok
    assert budget.work < 1000


def test_memory_error_inside_an_operation_ends_the_run_as_a_runtime_error(monkeypatch):
    def out_of_memory(self, op, left, right):
        raise MemoryError()

    monkeypatch.setattr(Operations, "binary", out_of_memory)
    result, _ = run("x = 1\ny = x + 1\nstop()\n")
    assert result.stop_reason == StopReason.RUNTIME_ERROR
    assert result.error == "line 2: out of memory (MemoryError)"


def test_error_reasons_are_cut_so_a_quoted_argument_cannot_blow_up_the_record():
    result, _ = run('x = eval("a" * 3000 + " +")\n')
    assert result.stop_reason == StopReason.PRIMITIVE_ERROR
    assert result.error is not None and len(result.error) < 520 and result.error.endswith("...")


@pytest.mark.parametrize(
    "value",
    [[1, "two", [3.5, None]], (1,), ("a", (2, 3)), "plain", 42, [], [[], ()]],
    ids=["nested", "one_tuple", "tuples", "str", "int", "empty", "empties"],
)
def test_bounded_text_of_a_small_value_is_its_str(value):
    assert bounded_text(value, 1000) == (str(value), False)


@pytest.mark.timeout(5)
def test_bounded_text_of_a_huge_answer_is_cut_without_building_it():
    huge = [["a" * 10000] * 10000] * 9
    text, cut = bounded_text(huge, 1000)
    assert cut and len(text) == 1000
    assert text.startswith("[['aaaa")


def test_the_guard_forgets_old_lists_so_it_keeps_no_garbage_alive():
    guard = ValueGuard()
    first = [1, 2, 3]
    guard.check(first)
    held = sys.getrefcount(first)
    for index in range(MEASURED_LISTS_KEPT):
        guard.check([index])
    assert sys.getrefcount(first) == held - 1


def test_measure_counts_strings_per_reference():
    guard = ValueGuard()
    row = ["abc"] * 10
    measure = guard.measure([row, row])
    assert (measure.elements, measure.depth, measure.chars) == (22, 2, 60)
    assert measure.min_text <= len(str([row, row]))
