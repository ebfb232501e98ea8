"""The pure operations of the language (operators, comparisons, builtins, list displays), each checked and
charged to the episode's work budget before it runs, so no single statement can take long or allocate much.

The cost of an operation is what it may touch, from the operands' measures (tango.programs.values): a
comparison or `in` the items and characters of both sides, a concatenation or repetition the size of its
result, a builtin the size of its arguments. A wall-clock check between statements cannot stop one slow
statement (`round(5, -10**8)` ran for minutes); these checks do, before any work is done.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from tango.programs.builtins import BUILTINS
from tango.programs.values import MAX_SEQUENCE, ValueGuard, ValueLimitError
from tango.trace.budget import Budget

_BIN: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_CMP: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_IDENTITY = (ast.Is, ast.IsNot)
_SYMBOLS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip
SEQUENCES = (str, list, tuple)
RENDER_COST = 16
"""Work units per unit of a value made into text: printing a float or a handle takes 300-700 ns per unit where
comparing takes 2-15 ns (BENCHMARKS.md, "Hostile programs"), so text is charged as 16 comparisons."""


class Operations:
    """The operations of one run over its value guard and budget; raise ValueLimitError, BudgetExhausted or
    the Python error of the operation (the interpreter turns them into runtime errors at the line)."""

    def __init__(self, guard: ValueGuard, budget: Budget) -> None:
        self.guard = guard
        self.budget = budget

    def binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        """`left op right` for the language's arithmetic operators (refused when it would be too large)."""
        func = _BIN.get(type(op))
        if func is None:
            raise TypeError(f"operator {type(op).__name__} is not part of the language")
        if isinstance(op, ast.Mod) and isinstance(left, str):
            raise TypeError("string formatting with % is not allowed; use + and str()")
        size = _result_size(op, left, right)
        if size > MAX_SEQUENCE:
            raise ValueLimitError(_growth_message(op, left, right, size))
        self.budget.charge_work(max(size, 1), f"'{_SYMBOLS[type(op)]}'")
        return self.guard.check(func(left, right))

    def compare(self, op: ast.cmpop, left: Any, right: Any) -> Any:
        """`left op right`; comparisons and `in` are charged the size of both sides (`is` nothing)."""
        if not isinstance(op, _IDENTITY):
            units = self.guard.weight(left, right)
            if isinstance(right, range) and type(left) is not int:
                units += len(
                    right
                )  # only an integer is looked up in a range; anything else is compared to each
            self.budget.charge_work(units, f"'{_SYMBOLS[type(op)]}'")
        return _CMP[type(op)](left, right)

    def builtin(self, name: str, args: list[Any]) -> Any:
        """Call builtin `name`, charged the size of its arguments; `str` of a value whose text would pass the
        length limit is refused before the text is built."""
        if name == "str" and args:
            shortest = self.guard.measure(args[0]).min_text
            if shortest > MAX_SEQUENCE:
                raise ValueLimitError(
                    f"the text would be at least {shortest} characters long; the limit is {MAX_SEQUENCE}"
                )
        units = self.guard.weight(*args) * (RENDER_COST if name == "str" else 1)
        self.budget.charge_work(units, f"{name}()")
        return self.guard.check(BUILTINS[name].func(*args))

    def display(self, items: list[Any]) -> list[Any]:
        """A list display `[a, b, ...]`, charged its length."""
        self.budget.charge_work(len(items) + 1, "list")
        return self.guard.check(items)

    def fill_limit(self, values: list[Any]) -> None:
        """Refuse placeholder values (TANGO's eval texts) whose text would pass the length limit."""
        shortest = sum(self.guard.measure(value).min_text for value in values)
        if shortest > MAX_SEQUENCE:
            raise ValueLimitError(
                f"the expression would be at least {shortest} characters long; the limit is {MAX_SEQUENCE}"
            )
        self.budget.charge_work(self.guard.weight(*values) * RENDER_COST, "eval()")


def _result_size(op: ast.operator, left: Any, right: Any) -> int:
    """Items (or characters) a sequence result of `left op right` would have; 0 for arithmetic."""
    if isinstance(op, ast.Mult):
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, SEQUENCES) and isinstance(times, int):
                return len(seq) * max(times, 0)
    if isinstance(op, ast.Add) and isinstance(left, SEQUENCES) and isinstance(right, SEQUENCES):
        return len(left) + len(right)
    return 0


def _growth_message(op: ast.operator, left: Any, right: Any, size: int) -> str:
    if isinstance(op, ast.Add):
        return f"joining {len(left)} and {len(right)} items exceeds the limit of {MAX_SEQUENCE}"
    seq, times = (left, right) if isinstance(left, SEQUENCES) else (right, left)
    return f"repeating a {type(seq).__name__} of {len(seq)} items {times} times exceeds the limit of {MAX_SEQUENCE}"
