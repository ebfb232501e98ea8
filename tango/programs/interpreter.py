"""A tree-walking interpreter over a validated Program (never eval/exec): budgets, loop caps and a trace."""

from __future__ import annotations

import ast
import logging
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tango.primitives import PrimitiveSpec, Toolbox, get_toolbox
from tango.programs.budget import BudgetExhausted
from tango.programs.builtins import BUILTINS, MAX_SEQUENCE, ValueGuard, ValueLimitError
from tango.programs.errors import ProgramRuntimeError
from tango.programs.parser import Program, fill_placeholders, parse_expression
from tango.programs.trace import summarize

if TYPE_CHECKING:
    from tango.agent.context import AgentContext

logger = logging.getLogger(__name__)


class StopReason:
    """Why a run ended: the program's own end, or the limit or error that stopped it."""

    RETURNED = "returned"
    COMPLETED = "completed"
    STEP_BUDGET = "step_budget"
    CALL_BUDGET = "call_budget"
    STATEMENT_BUDGET = "statement_budget"
    WALL_CLOCK = "wall_clock"
    LOOP_CAP = "loop_cap"
    RUNTIME_ERROR = "runtime_error"
    PRIMITIVE_ERROR = "primitive_error"


@dataclass
class RunResult:
    """What a run returned and why it ended; `error` is 'line N: reason' when it did not end cleanly."""

    value: Any
    stop_reason: str
    steps: int
    primitive_calls: int
    error: str | None = None
    error_line: int | None = None
    trace_path: str | None = None
    called: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _SearchDone(Exception):
    """Raised after an `ends_search` primitive; caught by the innermost search loop."""


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
_SEQUENCES = (str, list, tuple)
_CHECKED_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
}


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
        self.search_depth = 0
        self.guard = ValueGuard()
        self.lines = [line.strip() for line in program.source.splitlines()]

    def execute(self) -> RunResult:
        trace, budget = self.ctx.trace, self.ctx.budget
        budget.restart_clock()
        trace.emit("program", toolbox=self.toolbox.name, source=self.program.source)
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
        budget = self.ctx.budget  # the current one: a GOAT episode program gets a new budget per subtask
        if error is not None:
            trace.emit("error", line=self.line, reason=reason, message=error)
            logger.info("program stopped: %s", error)
        trace.emit(
            "end",
            stop_reason=reason,
            value=summarize(value),
            steps=budget.steps,
            primitive_calls=budget.primitive_calls,
            statements=budget.statements,
        )
        return RunResult(
            value=value,
            stop_reason=reason,
            steps=budget.steps,
            primitive_calls=budget.primitive_calls,
            error=error,
            error_line=self.line if error is not None else None,
            trace_path=str(trace.path) if trace.path is not None else None,
            called=self.called,
        )

    def fail(self, reason: str, kind: str = StopReason.RUNTIME_ERROR) -> ProgramRuntimeError:
        return ProgramRuntimeError(self.line, reason, kind)

    def enter_line(self, number: int) -> None:
        """Count a statement, publish the running line on the context and trace it."""
        self.ctx.budget.charge_statement()
        self.ctx.line, self.ctx.line_source = number, self.lines[number - 1]
        self.ctx.trace.emit("line", line=number, source=self.ctx.line_source)

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
                if not self.truth(self.guarded(lambda: _CMP[type(op)](left, right))):  # noqa: B023
                    return False
                left = right
            return True
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.expr(e) for e in node.elts]
            return self.guarded(lambda: self.guard.check(items))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.IfExp):
            return self.expr(node.body) if self.truth(self.expr(node.test)) else self.expr(node.orelse)
        raise self.fail(f"{type(node).__name__} is not part of the language")

    def subscript(self, node: ast.Subscript) -> Any:
        container = self.expr(node.value)
        if not isinstance(container, (*_SEQUENCES, range)):
            raise self.fail(f"only lists and strings can be indexed, not {type(container).__name__}")
        if isinstance(node.slice, ast.Slice):
            parts = [
                self.expr(p) if p is not None else None
                for p in (node.slice.lower, node.slice.upper, node.slice.step)
            ]
            return self.guarded(lambda: container[slice(*parts)])
        index = self.expr(node.slice)
        if not isinstance(index, int):
            raise self.fail(f"list indices must be integers, not {type(index).__name__}")
        if not -len(container) <= index < len(container):
            raise self.fail(f"index {index} is out of range for a list of {len(container)} items")
        return container[index]

    def binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        func = _BIN.get(type(op))
        if func is None:
            raise self.fail(f"operator {type(op).__name__} is not part of the language")

        def compute() -> Any:
            _check_growth(op, left, right)
            return self.guard.check(func(left, right))

        return self.guarded(compute)

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
        builtin = BUILTINS.get(name)
        if builtin is None:
            raise self.fail(f"unknown primitive {name!r}")
        try:
            return self.guard.check(builtin.func(*args))
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
        shown = [summarize(a, 60) for a in args] + [f"{k}={summarize(v, 60)}" for k, v in kwargs.items()]
        call_text = f"{spec.name}({', '.join(shown)})"

        def trace_call(result: str) -> None:
            self.ctx.trace.emit(
                "call",
                line=self.line,
                name=spec.name,
                call=call_text,
                result=result,
                steps=budget.steps - steps_before,
                total_steps=budget.steps,
            )

        try:
            result = self.evaluate(args, kwargs) if spec.evaluates else spec.func(self.ctx, *args, **kwargs)
        except BudgetExhausted:
            trace_call("<budget exhausted>")
            raise
        except Exception as error:  # noqa: BLE001 - a primitive may fail in any way; the run records why
            trace_call("<error>")
            reason = f"{call_text} failed: {type(error).__name__}: {error}"
            raise self.fail(reason, StopReason.PRIMITIVE_ERROR) from None
        trace_call(summarize(result))
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
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name):
        spec = toolbox.get(test.func.id)
        return spec is not None and spec.explores
    return False


def _check_growth(op: ast.operator, left: Any, right: Any) -> None:
    """Refuse sequence repetition or concatenation that would exceed the size limit before allocating it."""
    if isinstance(op, ast.Mod) and isinstance(left, str):
        raise TypeError("string formatting with % is not allowed; use + and str()")
    if isinstance(op, ast.Mult):
        for seq, times in ((left, right), (right, left)):
            if (
                isinstance(seq, _SEQUENCES)
                and isinstance(times, int)
                and len(seq) * max(times, 0) > MAX_SEQUENCE
            ):
                raise ValueLimitError(
                    f"repeating a {type(seq).__name__} of {len(seq)} items {times} times exceeds the limit of {MAX_SEQUENCE}"
                )
    joined = isinstance(op, ast.Add) and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES)
    if joined and len(left) + len(right) > MAX_SEQUENCE:
        raise ValueLimitError(
            f"joining {len(left)} and {len(right)} items exceeds the limit of {MAX_SEQUENCE}"
        )


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
