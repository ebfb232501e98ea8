"""Parse program text (as LLMs write it) into a validated Program of the language's Python subset.

Accepts whatever `tango.programs.extract.extract_program` takes out of a reply (fences of any language, prose
around the program, a model that keeps writing: the first program counts), comments and curly quotes, and what
TANGO's programs write beyond the language (surplus arguments, f-strings: tango.programs.compat, with warnings);
rejects everything outside
the subset with the line and the reason; turns `explore_scene()` followed by statements into an explicit
search loop (`while explore_scene(): ...`) so the canonical source shows what runs.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from tango.primitives import DEFAULT_TOOLBOX, Toolbox, get_toolbox
from tango.programs import layout
from tango.programs.builtins import BUILTINS, FORBIDDEN_CALLS
from tango.programs.compat import normalise, text_method_calls
from tango.programs.errors import ProgramError
from tango.programs.extract import extract_program

MAX_PROGRAM_CHARS = 20_000
MAX_NESTING = 12


_BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
_CMP_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot)
_UNARY_OPS = (ast.Not, ast.USub, ast.UAdd)

_REJECTED: dict[type, str] = {
    ast.Attribute: "attribute access (x.y) is not allowed",
    ast.Import: "imports are not allowed",
    ast.ImportFrom: "imports are not allowed",
    ast.Lambda: "lambdas are not allowed",
    ast.ListComp: "comprehensions are not allowed; use a for loop",
    ast.SetComp: "comprehensions are not allowed; use a for loop",
    ast.DictComp: "comprehensions are not allowed; use a for loop",
    ast.GeneratorExp: "generator expressions are not allowed; use a for loop",
    ast.FunctionDef: "function definitions (def) are not allowed",
    ast.AsyncFunctionDef: "function definitions (def) are not allowed",
    ast.ClassDef: "class definitions are not allowed",
    ast.With: "with statements are not allowed",
    ast.AsyncWith: "with statements are not allowed",
    ast.Try: "try/except is not allowed",
    ast.Global: "global is not allowed",
    ast.Nonlocal: "nonlocal is not allowed",
    ast.Delete: "del is not allowed",
    ast.Raise: "raise is not allowed",
    ast.Assert: "assert is not allowed",
    ast.Dict: "dict literals are not allowed",
    ast.Set: "set literals are not allowed",
    ast.JoinedStr: "f-strings are not allowed; use + and str()",
    ast.Starred: "star arguments are not allowed",
    ast.NamedExpr: "the walrus operator (:=) is not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
    ast.AsyncFor: "async for is not allowed",
    ast.Match: "match statements are not allowed",
}


@dataclass(frozen=True)
class Program:
    """A validated program: canonical `source` (what runs, as text), its AST and the toolbox it targets."""

    source: str
    tree: ast.Module
    toolbox: str
    warnings: tuple[str, ...] = ()

    def line(self, number: int) -> str:
        """The canonical source text of a 1-based line."""
        lines = self.source.splitlines()
        return lines[number - 1].strip() if 0 < number <= len(lines) else ""

    def __str__(self) -> str:
        return self.source


def extract_program_text(text: str) -> tuple[str, int]:
    """The program part of a model reply and how many lines of the reply precede it (see extract_program)."""
    extracted = extract_program(text)
    return extracted.text, extracted.offset


def parse(text: str, toolbox: str | Toolbox = DEFAULT_TOOLBOX) -> Program:
    """Validate `text` against the language and `toolbox`; return the Program or raise ProgramError."""
    box = toolbox if isinstance(toolbox, Toolbox) else get_toolbox(toolbox)
    if len(text) > MAX_PROGRAM_CHARS:
        raise ProgramError(None, f"program is {len(text)} characters long; the limit is {MAX_PROGRAM_CHARS}")
    body, offset = extract_program_text(text)
    if not body.strip():
        raise ProgramError(1, "the program is empty")
    tree, warnings = _syntax_tree_as_tango_reads(body, offset)
    warnings += normalise(tree, box, offset)
    _Validator(box, offset).check_module(tree)
    tree.body = _explicit_search_loops(tree.body, box)
    source = ast.unparse(tree) + "\n"
    canonical = _syntax_tree(source, 0)
    _Validator(box, 0).check_module(canonical)
    return Program(source=source, tree=canonical, toolbox=box.name, warnings=tuple(warnings))


def parse_expression(text: str, toolbox: Toolbox, names: set[str]) -> ast.expr:
    """One expression of the language over the variables `names`, calling builtins only (no primitives):
    what TANGO's `eval(expression)` may evaluate. ProgramError when it is anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise ProgramError(None, f"eval(): {text.strip()!r} is not an expression: {error.msg}") from None
    text_method_calls(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in BUILTINS):
            raise ProgramError(None, f"eval(): {text.strip()!r} may call only {', '.join(sorted(BUILTINS))}")
    validator = _Validator(toolbox, 0)
    validator.assigned = set(names)
    validator.check_expr(tree.body, 0)
    return tree.body


def fill_placeholders(text: str, variables: dict[str, Any]) -> str:
    """TANGO's eval texts name variables as `{name}`: inside quotes the value's text, elsewhere its literal."""
    out, quote = [], ""
    for index, part in enumerate(re.split(r"\{([A-Za-z]\w*)\}", text)):
        if index % 2 == 0:
            for char in part:
                quote = "" if char == quote else (char if not quote and char in "'\"" else quote)
            out.append(part)
        elif part not in variables:
            out.append("{" + part + "}")
        else:
            value = variables[part]
            out.append(
                str(value) if quote else repr(value if isinstance(value, (int, float, str)) else str(value))
            )
    return "".join(out)


def _syntax_tree(text: str, offset: int) -> ast.Module:
    try:
        return ast.parse(text, mode="exec")
    except SyntaxError as error:
        line = (error.lineno or 1) + offset
        raise ProgramError(line, f"syntax error: {error.msg}") from None
    except (RecursionError, MemoryError, ValueError) as error:
        raise ProgramError(None, f"program cannot be parsed: {type(error).__name__}: {error}") from None


def _syntax_tree_as_tango_reads(text: str, offset: int) -> tuple[ast.Module, list[str]]:
    """The syntax tree of `text`; where Python refuses its layout, of the layout TANGO reads (tango.programs.layout:
    the colons alone first, then the indentation too), with a warning per change; else Python's error."""
    try:
        return _syntax_tree(text, offset), []
    except ProgramError as error:
        for reindent in (False, True):
            repaired, warnings = layout.repair(text, reindent, offset)
            if warnings:
                try:
                    return _syntax_tree(repaired, offset), warnings
                except ProgramError:
                    continue
        raise error from None


def _is_explore_call(node: ast.AST, box: Toolbox) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return False
    spec = box.get(node.func.id)
    return spec is not None and spec.explores


def _is_explore_statement(stmt: ast.stmt, box: Toolbox) -> bool:
    return isinstance(stmt, ast.Expr) and _is_explore_call(stmt.value, box)


def _explicit_search_loops(body: list[ast.stmt], box: Toolbox) -> list[ast.stmt]:
    """Rewrite `explore(); rest` into `while explore(): rest`.

    `rest` runs up to the next bare explore call of the same block (each bare call starts a new search
    phase); a `return` that ends it runs after the search (the answer when nothing was found); a bare call
    with nothing after it stays a single step.
    """
    result: list[ast.stmt] = []
    index = 0
    while index < len(body):
        stmt = body[index]
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if isinstance(stmt, (ast.If, ast.While, ast.For)) and block:
                setattr(stmt, name, _explicit_search_loops(block, box))
        end = index + 1
        if _is_explore_statement(stmt, box) and isinstance(stmt, ast.Expr):
            while end < len(body) and not _is_explore_statement(body[end], box):
                end += 1
            segment = body[index + 1 : end]
            after: list[ast.stmt] = []
            if len(segment) > 1 and isinstance(segment[-1], ast.Return):
                segment, after = segment[:-1], segment[-1:]
            if segment:
                loop = ast.While(test=stmt.value, body=_explicit_search_loops(segment, box), orelse=[])
                result.append(ast.copy_location(loop, stmt))
                result.extend(after)
                index = end
                continue
        result.append(stmt)
        index = end
    return result


class _Validator:
    """Walks the AST once, accepting only the language's node types, names, calls and arities."""

    def __init__(self, box: Toolbox, offset: int) -> None:
        self.box = box
        self.offset = offset
        self.assigned: set[str] = set()

    def error(self, node: ast.AST, reason: str) -> ProgramError:
        line = getattr(node, "lineno", None)
        return ProgramError(line + self.offset if line is not None else None, reason)

    def check_module(self, tree: ast.Module) -> None:
        self.assigned = _assigned_names(tree)
        self.check_block(tree.body, depth=0, in_loop=False)

    def check_block(self, body: list[ast.stmt], depth: int, in_loop: bool) -> None:
        for stmt in body:
            self.check_stmt(stmt, depth, in_loop)

    def check_stmt(self, node: ast.stmt, depth: int, in_loop: bool) -> None:
        if depth > MAX_NESTING:
            raise self.error(node, f"blocks nested more than {MAX_NESTING} deep")
        if type(node) in _REJECTED:
            raise self.error(node, _REJECTED[type(node)])
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.check_target(target)
            self.check_expr(node.value, 0)
        elif isinstance(node, ast.AugAssign):
            self.check_target(node.target)
            self.check_operator(node, node.op)
            self.check_expr(node.value, 0)
        elif isinstance(node, ast.AnnAssign):
            raise self.error(node, "annotated assignments are not allowed")
        elif isinstance(node, ast.Expr):
            self.check_expr(node.value, 0)
        elif isinstance(node, ast.If):
            self.check_expr(node.test, 0)
            self.check_block(node.body, depth + 1, in_loop)
            self.check_block(node.orelse, depth + 1, in_loop)
        elif isinstance(node, ast.While):
            if node.orelse:
                raise self.error(node, "while/else is not allowed")
            self.check_expr(node.test, 0)
            self.check_block(node.body, depth + 1, True)
        elif isinstance(node, ast.For):
            if node.orelse:
                raise self.error(node, "for/else is not allowed")
            if not isinstance(node.target, ast.Name):
                raise self.error(node, "a for loop variable must be a single name")
            self.check_target(node.target)
            self.check_expr(node.iter, 0)
            self.check_block(node.body, depth + 1, True)
        elif isinstance(node, ast.Return):
            if node.value is not None:
                self.check_expr(node.value, 0)
        elif isinstance(node, (ast.Break, ast.Continue)):
            if not in_loop:
                raise self.error(node, f"'{type(node).__name__.lower()}' outside a loop")
        elif not isinstance(node, ast.Pass):
            raise self.error(node, f"{type(node).__name__} statements are not allowed")

    def check_target(self, node: ast.expr) -> None:
        if not isinstance(node, ast.Name):
            raise self.error(node, "only assignment to plain names is allowed")
        self.check_name(node, node.id)
        if node.id in BUILTINS or self.box.get(node.id) is not None:
            raise self.error(node, f"cannot assign to {node.id!r}: it is a primitive or builtin")
        if node.id in self.box.inputs:
            raise self.error(node, f"cannot assign to {node.id!r}: it is a bound input")

    def check_name(self, node: ast.AST, name: str) -> None:
        if name.startswith("_"):
            raise self.error(node, f"names starting with an underscore ({name!r}) are not allowed")

    def check_operator(self, node: ast.AST, op: ast.operator) -> None:
        if isinstance(op, ast.Pow):
            raise self.error(node, "the power operator (**) is not allowed")
        if not isinstance(op, _BIN_OPS):
            raise self.error(node, f"operator {type(op).__name__} is not allowed")

    def check_expr(self, node: ast.expr, depth: int) -> None:
        if depth > 3 * MAX_NESTING:
            raise self.error(node, f"expression nested more than {3 * MAX_NESTING} deep")
        if type(node) in _REJECTED:
            raise self.error(node, _REJECTED[type(node)])
        children: list[ast.expr] = []
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (str, int, float, bool, type(None))) or isinstance(
                node.value, complex
            ):
                raise self.error(node, f"constants of type {type(node.value).__name__} are not allowed")
        elif isinstance(node, ast.Name):
            self.check_name(node, node.id)
            if node.id not in self.assigned and node.id not in self.box.inputs:
                if self.box.get(node.id) is not None or node.id in BUILTINS:
                    raise self.error(node, f"{node.id!r} must be called, e.g. {node.id}(...)")
                raise self.error(node, f"name {node.id!r} is not defined")
        elif isinstance(node, ast.Call):
            self.check_call(node)
            children = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.BinOp):
            self.check_operator(node, node.op)
            children = [node.left, node.right]
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNARY_OPS):
                raise self.error(node, f"operator {type(node.op).__name__} is not allowed")
            children = [node.operand]
        elif isinstance(node, ast.BoolOp):
            children = list(node.values)
        elif isinstance(node, ast.Compare):
            for op in node.ops:
                if not isinstance(op, _CMP_OPS):
                    raise self.error(node, f"comparison {type(op).__name__} is not allowed")
            children = [node.left, *node.comparators]
        elif isinstance(node, (ast.List, ast.Tuple)):
            children = list(node.elts)
        elif isinstance(node, ast.Subscript):
            children = [node.value]
            if isinstance(node.slice, ast.Slice):
                children += [part for part in (node.slice.lower, node.slice.upper, node.slice.step) if part]
            else:
                children.append(node.slice)
        elif isinstance(node, ast.IfExp):
            children = [node.test, node.body, node.orelse]
        else:
            raise self.error(node, f"{type(node).__name__} expressions are not allowed")
        for child in children:
            self.check_expr(child, depth + 1)

    def check_call(self, node: ast.Call) -> None:
        if not isinstance(node.func, ast.Name):
            if isinstance(node.func, ast.Attribute):
                raise self.error(node, _REJECTED[ast.Attribute])
            raise self.error(node, "only primitives and builtins can be called, by name")
        name = node.func.id
        self.check_name(node, name)
        if name in FORBIDDEN_CALLS and self.box.get(name) is None:
            raise self.error(node, f"calling {name!r} is not allowed")
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.error(node, "**keyword arguments are not allowed")
        given = len(node.args) + len(node.keywords)
        spec = self.box.get(name)
        if spec is not None:
            names = [p.name for p in spec.parameters]
            for index, keyword in enumerate(node.keywords):
                if keyword.arg not in names:
                    raise self.error(
                        node, f"{name}() has no parameter {keyword.arg!r}; signature: {spec.signature()}"
                    )
                if names.index(keyword.arg) < len(node.args) or keyword.arg in [
                    k.arg for k in node.keywords[:index]
                ]:
                    raise self.error(node, f"{name}() got parameter {keyword.arg!r} twice")
            bound = set(names[: len(node.args)]) | {k.arg for k in node.keywords}
            missing = [p.name for p in spec.parameters if not p.has_default and p.name not in bound]
            if len(node.args) > spec.max_args or missing:
                raise self.error(
                    node,
                    f"{name}() takes {_arity_text(spec.min_args, spec.max_args)}, got {given}; "
                    f"signature: {spec.signature()}",
                )
            return
        builtin = BUILTINS.get(name)
        if builtin is not None:
            if node.keywords:
                raise self.error(node, f"{name}() takes no keyword arguments")
            if given < builtin.min_args or (builtin.max_args is not None and given > builtin.max_args):
                raise self.error(
                    node, f"{name}() takes {_arity_text(builtin.min_args, builtin.max_args)}, got {given}"
                )
            return
        if name in self.assigned:
            raise self.error(node, f"{name!r} is a variable, not a primitive; it cannot be called")
        known = ", ".join(sorted(self.box.primitives))
        raise self.error(node, f"unknown primitive {name!r}; the {self.box.name} toolbox has: {known}")


def _arity_text(low: int, high: int | None) -> str:
    if high is None:
        return f"at least {low} argument{'s' if low != 1 else ''}"
    if low == high:
        return f"{low} argument{'s' if low != 1 else ''}"
    return f"{low} to {high} arguments"


def _assigned_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names
