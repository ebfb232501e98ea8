"""What TANGO's programs write that the language does not, turned into the language before validation.

GPT-4o-mini's programs for TANGO call primitives with more arguments than the signatures take and use f-strings.
Read from TANGO's interpreter (filippoziliotto/TANGO, code_interpreter/interpreter_orig.py): its explore_scene
scores the value map for the episode's target before it explores (GOAT, instance-image nav), so
`explore_scene('x')` becomes `map_scene('x')` before the statement, then `explore_scene()` (a target that is not
a text, e.g. a variable holding detect()'s objects, is dropped with a warning); a turn with an angle is
the compat primitive's `degrees` (tango/primitives/tango_compat.py). Any other surplus argument is dropped
with a warning naming the call, its line and what was dropped (the program runs as TANGO meant it: the
first arguments); an f-string over the program's values becomes `'text' + str(value) + ...` (`{x:.2f}`:
`format(x, '.2f')`), and one with a `!r`/`!a` conversion or a nested field in its spec is refused with its line.
Keyword arguments under TANGO's parameter names take ours, and a variable named like a primitive (`answer =
answer(...)`, TANGO's own OpenEQA prompt) is renamed with a warning. Everything else is left to the validator,
which refuses it with its line.
"""

from __future__ import annotations

import ast
import re

from tango.primitives import Toolbox
from tango.programs import comprehensions, percent_format
from tango.programs.builtins import BUILTINS, FORMAT_SPEC
from tango.programs.errors import ProgramError
from tango.programs.text_methods import PREFIX, TEXT_METHODS

EXPLORE_TARGET = "map_scene"
RENAMED = "{name}_value"
TANGO_PARAMETERS: dict[str, dict[str, str]] = {
    "detect": {"target_name": "label"},
    "navigate_to": {"target_object": "target"},
    "is_found": {"target": "objects"},
    "count": {"target": "objects"},
    "match": {"target_name": "goal"},
    "map_scene": {"target_name": "target"},
    "describe_scene": {"type": "view"},
    "stop_navigation": {"output_var": "answer"},
}
"""TANGO's parameter names (PseudoCodeExecuter's methods) where ours differ: `detect(target_name='cup')` is ours
`detect(label='cup')`."""


def normalise(tree: ast.Module, box: Toolbox, offset: int) -> list[str]:
    """Rewrite `tree` in place; the warnings, one per dropped argument list, moved target or renamed variable."""
    warnings: list[str] = []
    _tango_keywords(tree, box)
    text_method_calls(tree)
    percent_format.expand(tree, offset)
    comprehensions.expand(tree)
    _rename_shadowing_variables(tree, box, offset, warnings)
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


def _tango_keywords(tree: ast.Module, box: Toolbox) -> None:
    """Keyword arguments under TANGO's parameter names get ours (the same argument, another name)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        spec = box.get(node.func.id)
        aliases = TANGO_PARAMETERS.get(node.func.id, {})
        if spec is None or not aliases:
            continue
        names = {parameter.name for parameter in spec.parameters}
        for keyword in node.keywords:
            ours = aliases.get(keyword.arg or "")
            if ours in names and keyword.arg not in names:
                keyword.arg = ours


def text_method_calls(tree: ast.AST) -> None:
    """`x.lower()` -> `text_lower(x)` for the text methods (tango.programs.text_methods); other attributes are left
    to the validator, which refuses them with their line."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in TEXT_METHODS
        ):
            receiver = node.func.value
            node.func = ast.copy_location(ast.Name(id=PREFIX + node.func.attr, ctx=ast.Load()), node.func)
            node.args = [receiver, *node.args]


def _rename_shadowing_variables(tree: ast.Module, box: Toolbox, offset: int, warnings: list[str]) -> None:
    """A variable named like a primitive or builtin (`answer = answer('...')`, TANGO's own OpenEQA prompt) is
    renamed `answer_value` wherever it is read or written, in eval texts too; calls keep calling the primitive.
    (TANGO keeps variables and primitives in two dictionaries, so the assignment is legal there.)"""
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    shadowing = sorted(
        {n.id for n in stores if (n.id in BUILTINS or box.get(n.id) is not None) and n.id not in box.inputs}
    )
    if not shadowing:
        return
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for name in shadowing:
        new, number = RENAMED.format(name=name), 2
        while new in taken or new in BUILTINS or box.get(new) is not None:
            new, number = RENAMED.format(name=name) + str(number), number + 1
        taken.add(new)
        word = re.compile(rf"(?<![\w.]){name}(?!\w)(?!\s*\()")
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == name and id(node) not in callees:
                node.id = new
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                spec = box.get(node.func.id)
                if spec is not None and spec.evaluates:
                    for part in (p for arg in node.args for p in ast.walk(arg)):
                        if isinstance(part, ast.Constant) and isinstance(part.value, str):
                            part.value = _rename_in_eval_text(part.value, word, new)
        line = min(getattr(n, "lineno", 0) for n in stores if n.id == new) + offset
        warnings.append(
            f"line {line}: {name!r} is also a primitive or builtin; the variable is renamed {new} "
            "(TANGO keeps variables apart from primitives)"
        )


def _rename_in_eval_text(text: str, word: re.Pattern[str], new: str) -> str:
    """The name renamed in an eval text: as a `{name}` placeholder anywhere, as a bare word outside quotes."""
    parts = re.split(r"('[^']*'|\"[^\"]*\")", text)
    return "".join(
        re.sub(r"\{(" + word.pattern + r")\}", "{" + new + "}", part) if index % 2 else word.sub(new, part)
        for index, part in enumerate(parts)
    )


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


def _constant_spec(spec: ast.expr | None) -> str | None:
    """The text of a format spec ('' for none); None when it holds a replacement field."""
    if spec is None:
        return ""
    if isinstance(spec, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in spec.values):
        return "".join(str(v.value) for v in spec.values if isinstance(v, ast.Constant))
    return None


class _FStrings(ast.NodeTransformer):
    """f'a {x} b' -> 'a ' + str(x) + ' b', f'{x:.2f}' -> format(x, '.2f') (the language has + and str(), not
    f-strings; format() checks its spec when it runs)."""

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
            if value.conversion not in (-1, ord("s")):
                raise self._refuse(node, "a conversion other than !s ({x!r}, {x!a}) in an f-string")
            inner = self.visit(value.value)
            spec = _constant_spec(value.format_spec)
            if spec is None:
                raise self._refuse(
                    node, "a format spec with a replacement field ({x:{width}}) in an f-string"
                )
            if FORMAT_SPEC.fullmatch(spec) is None:
                raise self._refuse(
                    node, f"the format spec {spec!r} (width and precision: two digits at most)"
                )
            if spec and value.conversion == -1:
                args: list[ast.expr] = [inner, ast.Constant(value=spec)]
                parts.append(ast.Call(func=ast.Name(id="format", ctx=ast.Load()), args=args, keywords=[]))
                continue
            call = ast.Call(func=ast.Name(id="str", ctx=ast.Load()), args=[inner], keywords=[])
            if spec:
                call = ast.Call(func=ast.Name(id="format", ctx=ast.Load()), args=[call, ast.Constant(value=spec)],
                                keywords=[])  # fmt: skip
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
