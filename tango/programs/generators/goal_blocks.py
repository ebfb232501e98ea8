"""Plan-then-fill for instructions with several goals ("Find the chair, then find the object shown in
goal_images[0], then ..."): the model writes one block per goal from that goal's own single-goal instruction
(the words a GOAT subtask is given), and the blocks are joined in goal order into the episode's one program.

Joining keeps each block's meaning as a program of its own and the sequence rule of the language (the k-th
stop() ends the k-th goal), by construction rather than by the model's care:

- the block reads its goal input by the episode's name for it (`goal_image` -> `goal_images[i]`,
  `goal_description` -> `goal_descriptions[j]`, i and j from the instruction);
- every stop() of block k becomes "if goal k is not done yet: mark it done, stop()", and a `return` stops
  goal k the same way (a block's return ended its program; here it must not end the episode's), so a block
  stops its goal at most once and never ends a later goal's search;
- after block k, goal k is stopped where the agent is if the block never stopped it (a program that ends
  cleanly stops its goal, as in one-program-per-subtask runs);
- a lone `explore_scene()` (one step) becomes an assignment, so it cannot turn the next goal's block into
  the body of its search loop (the language's implicit search loop: tango.programs.parser);
- memory first: a block that never calls recall() first looks its target up among what the episode has seen
  (`recall('chair')` for a block that searches with `detect('chair')`, its own `match(goal_images[i])` for an
  image or description), goes there and stops its goal when found, and runs as written otherwise. A one-goal
  instruction does not say that earlier goals' searches saw things, so the model's block starts searching
  afresh (read in its programs); the template programs open the same way (tango.programs.generators.template);
- each block starts at a top-level `goal_N_done = False`, so the program from goal N on is the text from that
  line (`program_from_goal`): after a runtime error in one goal's block, the episode runs on from the next.

So a block ending in an unconditional stop() can end only its own goal, never the whole episode's program.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tango.primitives import Toolbox, get_toolbox
from tango.programs.parser import Program, parse

GOAL_SEPARATOR = re.compile(r"\s*(?:,\s*)?(?:and\s+)?then\s+", re.IGNORECASE)
"""Between the goals of a sequence instruction (", then ")."""
_INDEXED_INPUT = re.compile(r"\b(?P<name>goal_image|goal_description)s\[(?P<index>\d+)\]")
SINGLE_INPUTS = ("goal_image", "goal_description")
_MARKER = re.compile(r"goal_(?P<number>\d+)_done")


def split_goals(instruction: str) -> list[str]:
    """The goal phrases of an instruction, in order (one for a question or a single goal)."""
    text = instruction.strip()
    if text.endswith("?"):
        return [text]
    return [part.strip() for part in GOAL_SEPARATOR.split(text) if part.strip()]


@dataclass(frozen=True)
class GoalPart:
    """One goal of a sequence: the single-goal instruction the model answers, and which episode input
    (`goal_images[i]`) stands for its `goal_image` / `goal_description`, if any."""

    instruction: str
    input_name: str = ""
    input_index: int = 0


def goal_parts(instruction: str) -> list[GoalPart]:
    """One part per goal phrase: 'find the object shown in goal_images[1]' -> ('Find the object shown in
    goal_image.', goal_image, 1)."""
    parts = []
    for phrase in split_goals(instruction):
        phrase = phrase.rstrip(" .") + "."
        phrase = phrase[0].upper() + phrase[1:]
        found = _INDEXED_INPUT.search(phrase)
        if found is None:
            parts.append(GoalPart(phrase))
            continue
        single = _INDEXED_INPUT.sub(lambda m: m["name"], phrase)
        parts.append(GoalPart(single, found["name"], int(found["index"])))
    return parts


def _parse_statements(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


class _GoalBlock(ast.NodeTransformer):
    """Rewrites one block's canonical syntax tree by the rules of the module docstring."""

    def __init__(self, box: Toolbox, part: GoalPart, done: str) -> None:
        self.box = box
        self.part = part
        self.done = done

    def stop_once(self) -> ast.stmt:
        return _parse_statements(f"if not {self.done}:\n    {self.done} = True\n    stop()\n")[0]

    def _primitive(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and self.box.get(node.func.id):
            return node.func.id
        return None

    def visit_Expr(self, node: ast.Expr) -> ast.AST | list[ast.stmt]:
        name = self._primitive(node.value)
        spec = self.box.get(name) if name else None
        if spec is not None and spec.ends_search:
            return self.stop_once()
        if spec is not None and spec.explores:
            value = self.visit(node.value)
            return ast.Assign(targets=[ast.Name("explored", ast.Store())], value=value, lineno=node.lineno)
        return self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> list[ast.stmt]:
        kept: list[ast.stmt] = []
        if node.value is not None and any(isinstance(n, ast.Call) for n in ast.walk(node.value)):
            kept.append(ast.Expr(self.visit(node.value)))  # its calls still run, as they did before return
        return [*kept, self.stop_once()]

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in SINGLE_INPUTS and self.part.input_name:
            return ast.Subscript(
                value=ast.Name(f"{self.part.input_name}s", ast.Load()),
                slice=ast.Constant(self.part.input_index),
                ctx=ast.Load(),
            )
        return node


def _called(body: list[ast.stmt], name: str) -> list[ast.Call]:
    """The calls of primitive `name` in `body`, in the order they are written."""
    module = ast.Module(body=body, type_ignores=[])
    calls = [
        node
        for node in ast.walk(module)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]
    return sorted(calls, key=lambda call: (call.lineno, call.col_offset))


def memory_lookup(body: list[ast.stmt]) -> str | None:
    """The expression that finds a block's target among what the episode has seen, or None when the block
    recalls by itself or names no target: `recall('X')` for its first `detect('X')`, else its first
    `match(...)` of a goal input (match reads the views kept so far)."""
    if _called(body, "recall"):
        return None
    for call in _called(body, "detect"):
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return f"recall({first.value!r})"
    for call in _called(body, "match"):
        if call.args and isinstance(call.args[0], ast.Subscript | ast.Name):
            return ast.unparse(call)
    return None


def goal_block(program: Program, part: GoalPart, number: int, toolbox: str | Toolbox) -> str:
    """The text of goal `number`'s block (1-based) in the episode's program, from the goal's own program."""
    box = toolbox if isinstance(toolbox, Toolbox) else get_toolbox(toolbox)
    done = f"goal_{number}_done"
    tree = ast.parse(program.source)
    body: list[ast.stmt] = []
    rewriter = _GoalBlock(box, part, done)
    for stmt in tree.body:
        new = rewriter.visit(stmt)
        body.extend(new if isinstance(new, list) else [new])
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    text = ast.unparse(module)
    lookup = memory_lookup(body)
    if lookup is None:
        return f"{done} = False\n{text}\nif not {done}:\n    stop()\n"
    seen = f"goal_{number}_seen"
    indented = "".join(f"    {line}\n" for line in text.splitlines())
    return (
        f"{done} = False\n{seen} = {lookup}\nif is_found({seen}):\n    navigate_to({seen})\n"
        f"    {done} = True\n    stop()\nif not {done}:\n{indented}if not {done}:\n    stop()\n"
    )


def _markers(program: Program) -> list[tuple[int, int]]:
    """(goal number, index in the program's top-level statements) of each goal block's first line."""
    found = []
    for index, stmt in enumerate(program.tree.body):
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.value, ast.Constant)
            and stmt.value.value is False
        ):
            continue
        name = _MARKER.fullmatch(ast.unparse(stmt.targets[0]))
        if name is not None:
            found.append((int(name["number"]), index))
    return found


def goal_at_line(program: Program, line: int) -> int | None:
    """The goal (1-based) whose block holds `line` of a joined program; None before the first block or in a
    program not joined from goal blocks."""
    body = program.tree.body
    inside = [number for number, index in _markers(program) if body[index].lineno <= line]
    return inside[-1] if inside else None


def program_from_goal(program: Program, number: int) -> Program | None:
    """The joined `program` from goal `number`'s block (1-based) to its end, or None when it has no such
    block (a program not joined from goal blocks, or fewer goals)."""
    for goal, index in _markers(program):
        if goal == number:
            rest = ast.Module(body=program.tree.body[index:], type_ignores=[])
            return parse(ast.unparse(rest), toolbox=program.toolbox)
    return None


def joined_program(programs: Sequence[Program], parts: Sequence[GoalPart], toolbox: str | Toolbox) -> str:
    """The episode's program: every goal's block in order."""
    return "".join(
        goal_block(program, part, number, toolbox)
        for number, (program, part) in enumerate(zip(programs, parts, strict=True), start=1)
    )
