"""The check before a program runs: does it look for what the instruction asks, and answer what was asked?

A small model often copies an in-context example: asked "Find a toilet." it writes `detect('chair')`. Such a
program parses and runs, and its mistake is invisible afterwards (it finds a chair and stops). So before it
runs, the labels it searches for (string arguments of detect/recall/select/segment_scene/map_scene/match) are
compared with the instruction's goal by the text-similarity model, and the questions it passes to answer()
with the question asked; the reason of a mismatch goes back to the model like a parse error. The check reads
only the instruction and the program text. Two shapes are refused whatever the target: a search loop whose
body ends in an unconditional stop()/return/break (it explores one step, then ends: the implicit search of a
bare explore_scene() followed by `...; stop()`), and a navigation program that calls answer(). A navigation
program that reads a goal picture or description its instruction does not give (`goal_image` for "Find the
picture.") is sent back too: the input is unbound there, so the program would fail when the line runs.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tango.primitives.rooms import is_room_name
from tango.programs.errors import ProgramError
from tango.programs.generators.goal_blocks import GOAL_SEPARATOR
from tango.programs.generators.template import QUESTION_TASKS, object_label, question_subject
from tango.programs.parser import Program, parse

SEARCHES = frozenset({"detect", "recall", "select", "segment_scene", "map_scene", "match"})
Similarity = Callable[[list[str], list[str]], np.ndarray]
_WORD = re.compile(r"[a-z]+")
_GOAL_INPUT = re.compile(r"goal_(?:image|description)s?(?:\[\d+\])?")
GOAL_INPUTS = frozenset({"goal_image", "goal_images", "goal_description", "goal_descriptions"})
"""The names a task binds to the goal's picture or description; a goal that names none of them has none."""


@dataclass(frozen=True)
class ProgramFacts:
    """What a program searches for and asks, read from its syntax tree."""

    labels: tuple[str, ...]
    questions: tuple[str, ...]
    matches: tuple[str, ...]


def program_facts(program: Program) -> ProgramFacts:
    labels, questions, matches = [], [], []
    for node in ast.walk(program.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        first, name = node.args[0], node.func.id
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            if name in SEARCHES:
                labels.append(first.value)
            elif name == "answer":
                questions.append(first.value)
        elif name == "match" and isinstance(first, (ast.Name, ast.Subscript)):
            matches.append(ast.unparse(first))
    return ProgramFacts(tuple(labels), tuple(questions), tuple(matches))


def _ending(stmt: ast.stmt) -> str | None:
    """'stop()', 'return' or 'break' when the statement is one of them, else None."""
    if isinstance(stmt, ast.Return):
        return "return"
    if isinstance(stmt, ast.Break):
        return "break"
    if (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
    ) and stmt.value.func.id in ("stop", "stop_navigation"):
        return f"{stmt.value.func.id}()"
    return None


def _ends_unconditionally(body: list[ast.stmt]) -> str | None:
    """The first of 'stop()', 'return' or 'break' that the block runs whatever happens (a statement of the
    block itself, not inside an if: `stop()` followed by more lines ends the block as surely as a last one;
    read in a 1.5B program), else None."""
    return next((ending for ending in map(_ending, body) if ending is not None), None)


class _SettleSearch(ast.NodeTransformer):
    """Cuts each search loop's body at its first unconditional stop()/return/break and puts a stop() or
    return after the loop instead (a break is dropped: the loop then ends when the search does)."""

    def __init__(self) -> None:
        self.changed = False

    def visit_While(self, node: ast.While) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if "explore_scene" not in ast.unparse(node.test):
            return node
        cut = next((i for i, stmt in enumerate(node.body) if _ending(stmt) is not None), None)
        if cut is None or cut == 0:
            return node
        ending = node.body[cut]
        node.body = node.body[:cut]
        self.changed = True
        return [node] if isinstance(ending, ast.Break) else [node, ending]


def settled_search(program: Program) -> Program | None:
    """The check's own correction of a search that can run only once (the body's unconditional stop() moved
    after the loop, what the check asks the model for), or None when there is none to make. Used when the
    model's repairs kept the shape: the 1.5B wrote `stop()` after `if is_found(...)` inside the loop in all
    three replies to "Find the counter." (GOAT val)."""
    tree = ast.parse(program.source)
    settle = _SettleSearch()
    tree = ast.fix_missing_locations(settle.visit(tree))
    if not settle.changed:
        return None
    try:
        return parse(ast.unparse(tree), toolbox=program.toolbox)
    except ProgramError:
        return None


OBJECT_TAKERS = ("is_found", "verify")
"""Primitives whose argument is detected objects: given a text, they fail when the line runs (found in a run:
`if is_found('counter'):` ended a GOAT episode program at its seventh goal; ObjectNav's prompt offers
`verify(detect('chair'))`, whose shortened `verify('chair')` fails the same way). Not navigate_to: graphnav's
takes a node name."""


def _text_argument(call: ast.Call) -> bool:
    return bool(call.args) and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)


def structure_problem(program: Program, question: bool) -> str | None:
    """A loop that can run only once, a text where detected objects belong (`is_found('counter')`), or
    (navigation) a call of answer(); None when none is there."""
    for node in ast.walk(program.tree):
        if isinstance(node, ast.While) and "explore_scene" in ast.unparse(node.test):
            ending = _ends_unconditionally(node.body)
            if ending is not None:
                return (
                    f"line {node.lineno}: the search `while {ast.unparse(node.test)}:` always ends with "
                    f"{ending} after one step, so it explores only once; call {ending} only inside "
                    "`if is_found(...):`, or after the search"
                )
        called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
        if called in OBJECT_TAKERS and isinstance(node, ast.Call) and _text_argument(node):
            text = ast.unparse(node.args[0])
            return (
                f"line {node.lineno}: {called}() takes what detect/match/recall returned, not the text {text}: "
                f"assign x = detect({text}) first and pass x"
            )
        if not question and called == "answer":
            return (
                f"line {getattr(node, 'lineno', '?')}: this is a navigation goal, not a question: do not call answer(); "
                "navigate_to() the object and call stop()"
            )
    return None


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower())}


def _part_of(label: str, goal: str) -> bool:
    """Whether `label` is some of the goal's words without its last one, the thing it names: 'tv' for 'tv
    stand' (the 1.5B wrote detect('tv') for "Find the tv stand."), not 'chair' for 'kitchen chair'."""
    words, goal_words = _words(label), _words(goal)
    head = _WORD.findall(goal.lower())
    return bool(words) and words < goal_words and bool(head) and head[-1].rstrip("s") not in words


class ProgramCheck:
    """`problem(task, instruction, program)`: None when the program fits its instruction, else the reason."""

    def __init__(self, similarity: Similarity | None = None, label_threshold: float = 0.6,
                 question_threshold: float = 0.75) -> None:  # fmt: skip
        self._similarity = similarity
        self.label_threshold = label_threshold
        self.question_threshold = question_threshold

    def similarity(self, a: list[str], b: list[str]) -> np.ndarray:
        if self._similarity is None:
            from tango.perception.models import placement
            from tango.perception.text_similarity import TextEmbedder

            self._similarity = TextEmbedder("", placement("cpu", half=False)).similarity
        return self._similarity(a, b)

    def same(self, label: str, goal: str, threshold: float) -> bool:
        if _words(label) <= _words(goal) or _words(goal) <= _words(label):
            return True
        return float(self.similarity([label], [goal])[0, 0]) >= threshold

    def problem(self, task: str, instruction: str, program: Program) -> str | None:
        facts = program_facts(program)
        labels = [label for label in facts.labels if not is_room_name(label)]
        question = task in QUESTION_TASKS or instruction.strip().endswith("?")
        goals = [part for part in GOAL_SEPARATOR.split(instruction.strip()) if part.strip()]
        unbound = None if question else self._unbound_input(instruction, program, goals)
        if unbound is not None:  # first: the rest of such a program is written around the wrong goal
            return unbound
        shape = structure_problem(program, question)
        if shape is not None:
            return shape
        if question:
            return self._question_problem(instruction.strip(), labels, facts)
        for goal in goals:
            given = _GOAL_INPUT.search(goal)
            if given is None or given[0] in facts.matches:
                continue
            if "goal_image" in given[0]:
                return f"the goal is given as a picture: the program must call match({given[0]})"
            if not labels:
                return f"the goal is given as a description: the program must call match({given[0]})"
        objects = [
            object_label(goal)
            for goal in goals
            if "goal_image" not in goal and "goal_description" not in goal
        ]
        if objects and not labels and not facts.matches:
            return f"the program never searches for {objects[0]!r}: call detect({objects[0]!r})"
        for label in labels:
            part = next((goal for goal in objects if _part_of(label, goal)), None)
            if part is not None:
                return (
                    f"the program searches for {label!r}, only part of {part!r} (a {part.split()[-1]}): "
                    f"search for {part!r}"
                )
            if objects and not any(self.same(label, goal, self.label_threshold) for goal in objects):
                goal = objects[0]
                return f"the program searches for {label!r} but the instruction asks for {goal!r}: search for {goal!r}"
        return None

    @staticmethod
    def _unbound_input(instruction: str, program: Program, goals: list[str]) -> str | None:
        """A program that reads a goal picture or description the instruction does not give ("Find the
        picture." answered with `navigate_to(goal_image)`: the word read as the input); None otherwise."""
        if _GOAL_INPUT.search(instruction):
            return None
        used = sorted(
            {n.id for n in ast.walk(program.tree) if isinstance(n, ast.Name) and n.id in GOAL_INPUTS}
        )
        if not used:
            return None
        target = object_label(goals[0]) if goals else "the object"
        return (
            f"this goal gives no {used[0]}: {target!r} is an object to search for by name; "
            f"call detect({target!r})"
        )

    def _question_problem(self, question: str, labels: list[str], facts: ProgramFacts) -> str | None:
        for asked in facts.questions:
            if not self.same(asked, question, self.question_threshold):
                return f"the program answers {asked!r} but the question is {question!r}: pass that question to answer()"
        subject = question_subject(question)
        for label in labels:
            if not (_words(label) & _words(question)) and not self.same(
                label, subject or question, self.label_threshold
            ):
                hint = f": search for {subject!r}" if subject else ": search for an object the question names"
                return f"the program searches for {label!r}, which the question does not mention{hint}"
        return None
