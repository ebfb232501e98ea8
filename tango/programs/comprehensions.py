"""List comprehensions and generator expressions, which TANGO's interpreter evaluates (it hands each assignment's
expression to Python), written out as the for loops of the language before the statement that holds them:

    big = [o for o in chairs if count([o]) > 0]       comprehension_1 = []
                                              ->      for item_1 in chairs:
                                                          if count([item_1]) > 0:
                                                              comprehension_1 = comprehension_1 + [item_1]
                                                      big = comprehension_1

`any(x > 1 for x in xs)` likewise, as the argument of a builtin that consumes it (the generator becomes a list). Only where the statement evaluates it once, right
where it stands: an assignment, an expression statement, a return, an `if` test, a `for` loop's iterable. In a
`while` test, evaluated again each time round, it is left to the validator, which refuses it with its line; so are
set and dict comprehensions and a loop variable that is not a single name.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable

Fresh = Callable[[str], str]
"""Gives a name not yet used in the program, from a stem."""

_ONCE = (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)
CONSUMERS = frozenset({"any", "all", "sum", "list", "sorted", "min", "max"})


def expand(tree: ast.Module) -> None:
    """Write out `tree`'s comprehensions in place (see the module docstring)."""
    if not any(isinstance(node, (ast.ListComp, ast.GeneratorExp)) for node in ast.walk(tree)):
        return
    taken = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    numbers = itertools.count(1)

    def fresh(stem: str) -> str:
        name = f"{stem}_{next(numbers)}"
        while name in taken:
            name = f"{stem}_{next(numbers)}"
        taken.add(name)
        return name

    tree.body = _block(tree.body, fresh)


def _block(body: list[ast.stmt], fresh: Fresh) -> list[ast.stmt]:
    result: list[ast.stmt] = []
    for stmt in body:
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if isinstance(stmt, (ast.If, ast.While, ast.For)) and block:
                setattr(stmt, name, _block(block, fresh))
        hoister = _Hoister(fresh)
        if isinstance(stmt, _ONCE):
            hoister.visit(stmt)
        elif isinstance(stmt, ast.If):
            stmt.test = hoister.visit(stmt.test)
        elif isinstance(stmt, ast.For):
            stmt.iter = hoister.visit(stmt.iter)
        for loop in hoister.loops:
            for part in loop:
                ast.fix_missing_locations(ast.copy_location(part, stmt))
            result.extend(_block(loop, fresh))
        result.append(stmt)
    return result


class _Hoister(ast.NodeTransformer):
    """Replaces each outermost comprehension of an expression by a fresh name and keeps the loops computing it."""

    def __init__(self, fresh: Fresh) -> None:
        self.fresh = fresh
        self.loops: list[list[ast.stmt]] = []

    def visit_ListComp(self, node: ast.ListComp) -> ast.expr:
        return self._hoist(node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """A generator expression is written out only as the argument of a builtin that consumes it whole."""
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in CONSUMERS:
            node.args = [self._hoist(a) if isinstance(a, ast.GeneratorExp) else a for a in node.args]
        return node

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.expr:
        return node  # anywhere else (`len(x for x in xs)`, a TypeError in Python) the validator refuses it

    def _hoist(self, node: ast.ListComp | ast.GeneratorExp) -> ast.expr:
        if any(not isinstance(g.target, ast.Name) or g.is_async for g in node.generators):
            return node
        result = self.fresh("comprehension")
        renames: dict[str, str] = {}
        for index, generator in enumerate(node.generators):
            if index > 0:  # the first iterable is evaluated outside the comprehension's own names
                generator.iter = _Renamer(renames).visit(generator.iter)
            target = generator.target
            if isinstance(target, ast.Name):  # every target is (checked above)
                renames[target.id] = self.fresh("item")
                target.id = renames[target.id]
            generator.ifs = [_Renamer(renames).visit(condition) for condition in generator.ifs]
        node.elt = _Renamer(renames).visit(node.elt)
        add = ast.BinOp(
            left=ast.Name(id=result, ctx=ast.Load()),
            op=ast.Add(),
            right=ast.List(elts=[node.elt], ctx=ast.Load()),
        )
        inner: ast.stmt = ast.Assign(targets=[ast.Name(id=result, ctx=ast.Store())], value=add)
        for generator in reversed(node.generators):
            for condition in reversed(generator.ifs):
                inner = ast.If(test=condition, body=[inner], orelse=[])
            inner = ast.For(target=generator.target, iter=generator.iter, body=[inner], orelse=[])
        start = ast.Assign(
            targets=[ast.Name(id=result, ctx=ast.Store())], value=ast.List(elts=[], ctx=ast.Load())
        )
        self.loops.append([start, inner])
        return ast.copy_location(ast.Name(id=result, ctx=ast.Load()), node)


class _Renamer(ast.NodeTransformer):
    """The comprehension's own loop variables get fresh names (they must not overwrite the program's)."""

    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.renames.get(node.id, node.id)
        return node
