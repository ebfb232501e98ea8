"""A tree-walking interpreter over a validated Program (never eval/exec): budgets, loop caps and a trace."""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tango.errors import ComponentError
from tango.primitives import PrimitiveSpec, Toolbox, get_toolbox
from tango.programs.builtins import BUILTINS
from tango.programs.errors import ProgramRuntimeError
from tango.programs.operations import SEQUENCES, Operations
from tango.programs.parser import Program, fill_placeholders, parse_expression
from tango.programs.result import RunResult, StopReason
from tango.programs.values import ValueGuard, ValueLimitError
from tango.trace.budget import Budget, BudgetExhausted
from tango.trace.values import describe_call, summarize

ERROR_CALL_CHARS = 120
"""How much of a failed primitive call an error reason quotes (the reason itself follows it, within the cap)."""

if TYPE_CHECKING:
    from tango.primitives.context import AgentContext

__all__ = ["Interpreter", "RunResult", "StopReason"]

logger = logging.getLogger(__name__)

MAX_ERROR_CHARS = 500
"""Error reasons are cut here: a primitive's exception text may quote whatever it was given."""


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _SearchDone(Exception):
    """Raised after an `ends_search` primitive; caught by the innermost search loop."""


_CHECKED_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
}


def _counters(budget: Budget) -> tuple[int, ...]:
    return (budget.steps, budget.primitive_calls, budget.statements, budget.work)


class Interpreter:
    """Runs Programs against an AgentContext; one interpreter per toolbox, reusable across episodes."""

    def __init__(self, toolbox: str | Toolbox | None = None) -> None:
        self._toolbox = get_toolbox(toolbox) if isinstance(toolbox, str) else toolbox

    def run(self, program: Program, ctx: AgentContext) -> RunResult:
        """Execute `program`; never raises for anything the program does, the result says what happened."""
        return _Run(self._toolbox or get_toolbox(program.toolbox), program, ctx).execute()


class _Run:
    """The state of one execution: variables, the line being run, the called primitives."""

    def __init__(self, toolbox: Toolbox, program: Program, ctx: AgentContext) -> None:
        self.toolbox = toolbox
        self.program = program
        self.ctx = ctx
        self.variables: dict[str, Any] = {name: ctx.inputs.get(name) for name in toolbox.inputs}
        self.line = 0
        self.called: list[str] = []
        self.budgets: list[tuple[Budget, tuple[int, ...]]] = [(ctx.budget, _counters(ctx.budget))]
        self.search_depth = 0
        self.guard = ValueGuard()
        self.ops = Operations(self.guard, ctx.budget)
        self.lines = [line.strip() for line in program.source.splitlines()]

    def execute(self) -> RunResult:
        trace, budget = self.ctx.trace, self.ctx.budget
        budget.restart_clock()
        trace.begin_program(self.program.source, self.toolbox.name)
        value: Any = None
        error: str | None = None
        reason = StopReason.COMPLETED
        try:
            self.block(self.program.tree.body)
        except _Return as done:
            value, reason = done.value, StopReason.RETURNED
        except BudgetExhausted as exhausted:
            reason, error = exhausted.kind, f"line {self.line}: {exhausted}"
        except ProgramRuntimeError as failure:
            reason, error = failure.kind, str(failure)
        except RecursionError:
            reason, error = StopReason.RUNTIME_ERROR, f"line {self.line}: program nested too deeply"
        except MemoryError:
            reason, error = StopReason.RUNTIME_ERROR, f"line {self.line}: out of memory (MemoryError)"
        if error is not None:
            trace.emit("error", line=self.line, reason=reason, message=error)
            logger.info("program stopped: %s", error)
        steps, primitive_calls, statements, work = self.spent()
        trace.end_program(
            stop_reason=reason,
            value=summarize(value),
            steps=steps,
            primitive_calls=primitive_calls,
            statements=statements,
            work=work,
        )
        return RunResult(
            value=value,
            stop_reason=reason,
            steps=steps,
            primitive_calls=primitive_calls,
            error=error,
            error_line=self.line if error is not None else None,
            trace_path=str(trace.path) if trace.path is not None else None,
            called=self.called,
        )

    def fail(self, reason: str, kind: str = StopReason.RUNTIME_ERROR) -> ProgramRuntimeError:
        if len(reason) > MAX_ERROR_CHARS:
            reason = reason[: MAX_ERROR_CHARS - 3] + "..."
        return ProgramRuntimeError(self.line, reason, kind)

    def note_budget(self) -> None:
        """Remember the context's budget if the task replaced it (a GOAT episode program gets a fresh one per
        subtask); a budget first seen mid-run was made for this run, so all of its counts are this program's."""
        if self.ctx.budget is not self.budgets[-1][0]:
            self.budgets.append((self.ctx.budget, (0, 0, 0, 0)))

    def spent(self) -> tuple[int, ...]:
        """Steps, primitive calls, statements and work of this run, over every budget it ran under (a budget
        shared with earlier programs, such as a replanned one's, counts only from this run's start)."""
        self.note_budget()
        totals = [0, 0, 0, 0]
        for budget, start in self.budgets:
            for index, (now, before) in enumerate(zip(_counters(budget), start, strict=True)):
                totals[index] += now - before
        return tuple(totals)

    def enter_line(self, number: int) -> None:
        """Count a statement, publish the running line on the context and trace it."""
        self.note_budget()
        self.ctx.budget.charge_statement()
        self.ctx.line, self.ctx.line_source = number, self.lines[number - 1]
        self.ctx.trace.line(number)

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def statement(self, node: ast.stmt) -> None:
        self.line = node.lineno
        self.enter_line(node.lineno)
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            for target in node.targets:
                self.variables[_name_of(target)] = value
        elif isinstance(node, ast.AugAssign):
            name = _name_of(node.target)
            if name not in self.variables:
                raise self.fail(f"name {name!r} is used before it is assigned")
            self.variables[name] = self.binary(node.op, self.variables[name], self.expr(node.value))
        elif isinstance(node, ast.Expr):
            self.expr(node.value)
        elif isinstance(node, ast.If):
            self.block(node.body if self.truth(self.expr(node.test)) else node.orelse)
        elif isinstance(node, ast.While):
            self.while_loop(node)
        elif isinstance(node, ast.For):
            self.for_loop(node)
        elif isinstance(node, ast.Return):
            raise _Return(self.expr(node.value) if node.value is not None else None)
        elif isinstance(node, ast.Break):
            raise _Break()
        elif isinstance(node, ast.Continue):
            raise _Continue()
        elif not isinstance(node, ast.Pass):
            raise self.fail(f"{type(node).__name__} is not part of the language")

    def loop_cap(self, node: ast.stmt, iterations: int) -> None:
        self.ctx.trace.iteration(node.lineno, iterations, self.ctx.budget.steps)
        cap = self.ctx.budget.max_loop_iterations
        if iterations > cap:
            self.line = node.lineno
            raise self.fail(f"loop ran more than {cap} iterations (iteration cap)", StopReason.LOOP_CAP)

    def while_loop(self, node: ast.While) -> None:
        search = _is_search(node.test, self.toolbox)
        iterations = 0
        self.search_depth += search
        try:
            while True:
                self.line = node.lineno
                if iterations > 0:
                    self.enter_line(node.lineno)
                if search and iterations >= self.ctx.budget.max_loop_iterations:
                    # A search that found nothing in this many passes ends as one over an explored scene
                    # does: the program goes on (a GOAT episode program to its next goal) instead of failing.
                    self.ctx.trace.iteration(node.lineno, iterations + 1, self.ctx.budget.steps)
                    return
                if not self.truth(self.expr(node.test)):
                    return
                iterations += 1
                self.loop_cap(node, iterations)
                try:
                    self.block(node.body)
                except _Break:
                    return
                except _Continue:
                    continue
        except _SearchDone:
            if not search:
                raise
        finally:
            self.search_depth -= search

    def for_loop(self, node: ast.For) -> None:
        self.line = node.lineno
        items = self.expr(node.iter)
        if not isinstance(items, (range, list, tuple, str)):
            raise self.fail(f"for loops run over range(...) or a list, not {type(items).__name__}")
        for iterations, item in enumerate(items, start=1):
            self.loop_cap(node, iterations)
            self.variables[_name_of(node.target)] = item
            try:
                self.block(node.body)
            except _Break:
                return
            except _Continue:
                continue

    def truth(self, value: Any) -> bool:
        try:
            return bool(value)
        except (TypeError, ValueError) as error:
            raise self.fail(f"a {type(value).__name__} cannot be used as a condition: {error}") from None

    def expr(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in self.variables:
                raise self.fail(f"name {node.id!r} is used before it is assigned")
            return self.variables[node.id]
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.Not):
                return not self.truth(operand)
            return self.guarded(lambda: -operand if isinstance(node.op, ast.USub) else +operand)
        if isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            value: Any = None
            for part in node.values:
                value = self.expr(part)
                if self.truth(value) != is_and:
                    return value
            return value
        if isinstance(node, ast.Compare):
            left = self.expr(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self.expr(right_node)
                if not self.truth(self.guarded(lambda: self.ops.compare(op, left, right))):  # noqa: B023
                    return False
                left = right
            return True
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.expr(e) for e in node.elts]
            return self.guarded(lambda: self.ops.display(items))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.IfExp):
            return self.expr(node.body) if self.truth(self.expr(node.test)) else self.expr(node.orelse)
        raise self.fail(f"{type(node).__name__} is not part of the language")

    def subscript(self, node: ast.Subscript) -> Any:
        container = self.expr(node.value)
        if not isinstance(container, (*SEQUENCES, range)):
            raise self.fail(f"only lists and strings can be indexed, not {type(container).__name__}")
        if isinstance(node.slice, ast.Slice):
            parts = [
                self.expr(p) if p is not None else None
                for p in (node.slice.lower, node.slice.upper, node.slice.step)
            ]
            self.ctx.budget.charge_work(len(container) + 1, "slice")
            return self.guarded(lambda: container[slice(*parts)])
        index = self.expr(node.slice)
        if not isinstance(index, int):
            raise self.fail(f"list indices must be integers, not {type(index).__name__}")
        if not -len(container) <= index < len(container):
            raise self.fail(f"index {index} is out of range for a list of {len(container)} items")
        return container[index]

    def binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        return self.guarded(lambda: self.ops.binary(op, left, right))

    def guarded(self, compute: Callable[[], Any]) -> Any:
        """Run a pure computation, turning Python errors into runtime errors at the current line."""
        try:
            return compute()
        except ValueLimitError as error:
            raise self.fail(str(error)) from None
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, IndexError) as error:
            raise self.fail(f"{type(error).__name__}: {error}") from None

    def call(self, node: ast.Call) -> Any:
        name = _name_of(node.func)
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg is not None}
        self.line = node.lineno
        spec = self.toolbox.get(name)
        if spec is not None:
            return self.call_primitive(spec, args, kwargs)
        if name not in BUILTINS:
            raise self.fail(f"unknown primitive {name!r}")
        try:
            return self.ops.builtin(name, args)
        except ValueLimitError as error:
            raise self.fail(f"{name}(): {error}") from None
        except (TypeError, ValueError, OverflowError) as error:
            raise self.fail(f"{name}(): {type(error).__name__}: {error}") from None

    def call_primitive(self, spec: PrimitiveSpec, args: list[Any], kwargs: dict[str, Any]) -> Any:
        budget = self.ctx.budget
        budget.charge_call(spec.name)
        _check_argument_types(spec, args, kwargs, self)
        steps_before = budget.steps
        self.called.append(spec.name)
        call_text = describe_call(spec.name, args, kwargs)

        def trace_call(result: Any, failure: str | None = None) -> None:
            steps = budget.steps - steps_before
            arguments = [*args, *kwargs.values()]
            self.ctx.trace.call(
                self.line, spec.name, call_text, arguments, result, steps, budget.steps, failure
            )

        try:
            result = self.evaluate(args, kwargs) if spec.evaluates else spec.func(self.ctx, *args, **kwargs)
        except BudgetExhausted:
            trace_call(None, "budget exhausted")
            raise
        except ComponentError:  # a model or service failed, not the program: the episode's error
            trace_call(None, "error")
            raise
        except Exception as error:  # noqa: BLE001 - a primitive may fail in any way; the run records why
            trace_call(None, "error")
            shown = describe_call(spec.name, args, kwargs, ERROR_CALL_CHARS)
            reason = f"{shown} failed: {type(error).__name__}: {error}"
            raise self.fail(reason, StopReason.PRIMITIVE_ERROR) from None
        trace_call(result)
        if spec.ends_program:
            raise _Return(result)
        if spec.ends_search and self.search_depth > 0:
            raise _SearchDone()
        return self.guarded(lambda: self.guard.check(result))

    def evaluate(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        """TANGO's `eval(expression)`: the text (with `{name}` placeholders filled from the variables) parsed
        as one expression of the language, without primitive calls, and evaluated here; the result as text."""
        text = next(iter([*args, *kwargs.values()]), None)
        if not isinstance(text, str):
            raise TypeError(f"eval needs the expression as a string, got {type(text).__name__}")
        named = [self.variables[n] for n in re.findall(r"\{([A-Za-z]\w*)\}", text) if n in self.variables]
        self.ops.fill_limit(named)
        node = parse_expression(fill_placeholders(text, self.variables), self.toolbox, set(self.variables))
        line = self.line
        try:
            return str(self.expr(node))
        finally:
            self.line = line


def _name_of(node: ast.expr) -> str:
    """The identifier of a Name node (the validator guarantees assignment targets and callees are names)."""
    if not isinstance(node, ast.Name):
        raise ProgramRuntimeError(getattr(node, "lineno", None), "expected a plain name")
    return node.id


def _is_search(test: ast.expr, toolbox: Toolbox) -> bool:
    """A search loop's test: an exploring primitive's call, alone or as an operand of `and` (the templates'
    `while not is_found(target) and explore_scene():`)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_is_search(value, toolbox) for value in test.values)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name):
        spec = toolbox.get(test.func.id)
        return spec is not None and spec.explores
    return False


def _check_argument_types(spec: PrimitiveSpec, args: list[Any], kwargs: dict[str, Any], run: _Run) -> None:
    values = dict(zip([p.name for p in spec.parameters], args)) | kwargs
    for param in spec.parameters:
        allowed = _CHECKED_TYPES.get(param.annotation)
        if allowed is None or param.name not in values:
            continue
        value = values[param.name]
        if not isinstance(value, allowed) or (param.annotation != "bool" and isinstance(value, bool)):
            raise run.fail(
                f"{spec.name}() argument {param.name!r} must be {param.annotation}, got {type(value).__name__}"
            )
