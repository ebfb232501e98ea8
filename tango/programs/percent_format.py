"""`'%d chairs' % n` (Python's printf-style formatting, which TANGO's interpreter evaluates) written as the
language's concatenation: `'%s is %.1f m' % (name, d)` becomes `str(name) + ' is ' + format(d, '.1f') + ' m'`. `%s` is the value's text, `%d`/`%i` its integer part, `%f`/`%e`/`%g`/`%x`/`%o` as in Python (six digits
after the point by default), `%%` a percent sign; flags, width and precision as format() takes them (two digits
at most). Only a text literal on the left is rewritten; a `%r`, a `%(name)s` mapping key, a `*` width or a count of
values that does not match the text is refused with its line. A `%` between any other values stays the
arithmetic remainder.
"""

from __future__ import annotations

import ast
import re

from tango.programs.builtins import FORMAT_SPEC
from tango.programs.errors import ProgramError

_FIELD = re.compile(
    r"%(?P<key>\([^)]*\))?(?P<flags>[-+ 0#]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?(?P<kind>.?)"
)
_FLAGS = {"-": "<", "+": "+", " ": " ", "#": "#", "0": "0"}
"""printf flag -> format() spec character, in the order a format spec puts them."""


def expand(tree: ast.Module, offset: int) -> None:
    """Rewrite every `'text' % values` of `tree` in place; ProgramError (with the line) for the forms above."""
    if any(_is_percent(node) for node in ast.walk(tree)):
        _Rewriter(offset).visit(tree)


def _is_percent(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    )


class _Rewriter(ast.NodeTransformer):
    def __init__(self, offset: int) -> None:
        self.offset = offset

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if not _is_percent(node) or not isinstance(node.left, ast.Constant):
            return node
        values = list(node.right.elts) if isinstance(node.right, ast.Tuple) else [node.right]
        parts: list[ast.expr] = []
        text, position = str(node.left.value), 0
        for field in _FIELD.finditer(text):
            if field.start() > position:
                parts.append(ast.Constant(value=text[position : field.start()]))
            position = field.end()
            kind = field.group("kind")
            if kind == "%" and field.group(0) == "%%":
                parts.append(ast.Constant(value="%"))
                continue
            if field.group("key") or "*" in (field.group("width") or "") + (field.group("precision") or ""):
                raise self._refuse(node, "a %(key)s mapping key or a * width in %-formatting")
            if kind not in "sdiufFeEgGxXo" or not kind:
                raise self._refuse(node, f"the %-format {field.group(0)!r}")
            if not values:
                raise self._refuse(node, "more %-fields than values")
            parts.append(_formatted(values.pop(0), field, node, self))
        if values:
            raise self._refuse(node, "more values than %-fields")
        if position < len(text):
            parts.append(ast.Constant(value=text[position:]))
        result: ast.expr = parts[0] if parts else ast.Constant(value="")
        for part in parts[1:]:
            result = ast.BinOp(left=result, op=ast.Add(), right=part)
        return ast.fix_missing_locations(ast.copy_location(result, node))

    def _refuse(self, node: ast.AST, what: str) -> ProgramError:
        line = getattr(node, "lineno", None)
        return ProgramError(
            line + self.offset if line is not None else None, f"{what} is not allowed; use + and str()"
        )


def _formatted(value: ast.expr, field: re.Match[str], node: ast.AST, rewriter: _Rewriter) -> ast.expr:
    """format(...) of one value for one %-field."""
    kind = field.group("kind")
    given = set(field.group("flags"))
    flags = "".join(
        spec for flag, spec in _FLAGS.items() if flag in given and not (flag == "0" and "-" in given)
    )
    if "+" in given and " " in given:
        flags = flags.replace(" ", "")
    precision = field.group("precision")
    if kind in "fFeEgG" and precision is None:
        precision = "6"
    spec = (
        flags
        + (field.group("width") or "")
        + (f".{precision}" if precision is not None and kind != "s" else "")
    )
    spec += {"s": "", "i": "d", "u": "d"}.get(kind, kind)
    if kind == "s" and precision is not None:
        spec += f".{precision}"
    if FORMAT_SPEC.fullmatch(spec) is None:
        raise rewriter._refuse(
            node, f"the %-format {field.group(0)!r} (width and precision: two digits at most)"
        )
    convert = {"s": "str", "d": "int", "i": "int", "u": "int"}.get(kind)
    inner = (
        ast.Call(func=ast.Name(id=convert, ctx=ast.Load()), args=[value], keywords=[]) if convert else value
    )
    if kind == "s" and not spec:
        return inner
    return ast.Call(
        func=ast.Name(id="format", ctx=ast.Load()), args=[inner, ast.Constant(value=spec)], keywords=[]
    )
