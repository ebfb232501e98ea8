"""What TANGO's programs write that the language does not, turned into the language before validation.

GPT-4o-mini's programs for TANGO call primitives with more arguments than the signatures take and use f-strings.
Read from TANGO's interpreter (filippoziliotto/TANGO, code_interpreter/interpreter_orig.py): its explore_scene
scores the value map for the episode's target before it explores (GOAT, instance-image nav), so
`explore_scene('x')` becomes `map_scene('x')` before the statement, then `explore_scene()` (a target that is not
a text, e.g. a variable holding detect()'s objects, is dropped with a warning); a turn with an angle is
the compat primitive's `degrees` (tango/primitives/tango_compat.py). Any other surplus argument is dropped
with a warning naming the call, its line and what was dropped (the program runs as TANGO meant it: the
first arguments); an f-string over the program's values becomes `'text' + str(value) + ...`, and one with a
format spec or conversion (`{x:.2f}`, `{x!r}`) is refused with its line. Everything else is left to the
validator, which refuses it with its line.
"""

from __future__ import annotations

import ast

from tango.primitives import Toolbox
from tango.programs.errors import ProgramError

EXPLORE_TARGET = "map_scene"


def normalise(tree: ast.Module, box: Toolbox, offset: int) -> list[str]:
    """Rewrite `tree` in place; the warnings, one per dropped argument list or moved target."""
    warnings: list[str] = []
    tree.body = _statements(tree.body, box, offset, warnings)
    fstrings = any(isinstance(node, ast.JoinedStr) for node in ast.walk(tree))  # ast.walk does not recurse
    if fstrings or warnings:  # only then: the rewriters below recurse, and a hostile program nests deep
        try:
            if fstrings:
                _FStrings(offset).visit(tree)
            ast.fix_missing_locations(tree)
        except RecursionError:
            raise ProgramError(None, "a program nested too deep to rewrite; use + and str()") from None
    return warnings


def _statements(body: list[ast.stmt], box: Toolbox, offset: int, warnings: list[str]) -> list[ast.stmt]:
    result: list[ast.stmt] = []
    for stmt in body:
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if isinstance(stmt, (ast.If, ast.While, ast.For)) and block:
                setattr(stmt, name, _statements(block, box, offset, warnings))
        targets: list[ast.expr] = []
        for node in _own_calls(stmt):
            spec = box.get(node.func.id) if isinstance(node.func, ast.Name) else None
            if spec is None or len(node.args) <= spec.max_args:
                continue
            line = getattr(node, "lineno", 0) + offset
            surplus = node.args[spec.max_args :]
            named = isinstance(surplus[0], ast.Constant) and isinstance(surplus[0].value, str)
            if spec.explores and spec.max_args == 0 and named and box.get(EXPLORE_TARGET) is not None:
                targets.append(surplus[0])
                warnings.append(
                    f"line {line}: {spec.name}({ast.unparse(surplus[0])}) explores toward a target as in TANGO: "
                    f"{EXPLORE_TARGET}({ast.unparse(surplus[0])}) runs before the statement"
                    + (f"; ignored {', '.join(ast.unparse(a) for a in surplus[1:])}" if surplus[1:] else "")
                )
            else:
                warnings.append(
                    f"line {line}: {spec.name}() takes {spec.max_args} argument(s); ignored "
                    f"{', '.join(ast.unparse(a) for a in surplus)}"
                )
            node.args = node.args[: spec.max_args]
        for target in targets:
            call = ast.Call(func=ast.Name(id=EXPLORE_TARGET, ctx=ast.Load()), args=[target], keywords=[])
            result.append(ast.copy_location(ast.Expr(value=call), stmt))
        result.append(stmt)
    return result


def _own_calls(stmt: ast.stmt) -> list[ast.Call]:
    """The calls in a statement's own expressions (not in the blocks it holds)."""
    parts: list[ast.AST]
    if isinstance(stmt, (ast.If, ast.While)):
        parts = [stmt.test]
    elif isinstance(stmt, ast.For):
        parts = [stmt.iter]
    else:
        parts = [stmt]
    return [node for part in parts for node in ast.walk(part) if isinstance(node, ast.Call)]


class _FStrings(ast.NodeTransformer):
    """f'a {x} b' -> 'a ' + str(x) + ' b' (the language has + and str(), not f-strings)."""

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.expr:
        parts: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(ast.Constant(value=str(value.value)))
                continue
            if not isinstance(value, ast.FormattedValue):
                raise self._refuse(node, "this f-string part")
            if value.conversion != -1 or value.format_spec is not None:
                raise self._refuse(node, "a conversion or format spec ({x!r}, {x:.2f}) in an f-string")
            inner = self.visit(value.value)
            call = ast.Call(func=ast.Name(id="str", ctx=ast.Load()), args=[inner], keywords=[])
            parts.append(call)
        if not parts:
            return ast.copy_location(ast.Constant(value=""), node)
        result = parts[0]
        for part in parts[1:]:
            result = ast.BinOp(left=result, op=ast.Add(), right=part)
        return ast.copy_location(result, node)

    def _refuse(self, node: ast.AST, what: str) -> ProgramError:
        line = getattr(node, "lineno", None)
        return ProgramError(
            line + self.offset if line is not None else None, f"{what} is not allowed; use + and str()"
        )
