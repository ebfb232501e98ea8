"""The offline, deterministic generator: a program per task type built from the instruction text only.

It never sees ground truth: object names come from the instruction's words, image and description goals
are matched through the bound `goal_image` / `goal_description` variables.
"""

from __future__ import annotations

import re

from tango.programs.errors import ProgramError
from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.goal_blocks import GOAL_SEPARATOR
from tango.programs.generators.record import GenerationRecord
from tango.programs.parser import parse
from tango.programs.prompt import toolbox_for_task

QUESTION_TASKS = frozenset({"openeqa"})
EQA_EXPLORE_STEPS = 400
VERIFY_TASKS = frozenset({"objectnav", "ovon", "goat"})
"""Tasks whose object searches check a detection from close by before stopping (issue 22: the detector's
per-view mistakes, not exploration, decided most failures of every explorer on ObjectNav, OVON and GOAT)."""

_DESCRIPTION = re.compile(r"described in (?P<input>goal_descriptions\[\d+\]|goal_description(?![\w\[]))")
_IMAGE = re.compile(r"shown in (?P<input>goal_images\[\d+\]|goal_image(?![\w\[]))")
_SUBJECT = re.compile(
    r"\b(?:the|a|an|any|my)\s+(?P<subject>[a-z][a-z -]*?)(?=\s+(?:in|on|near|next|of|at|under|above|below|"
    r"behind|beside|to|with|that|which|is|are|was|were|located|or|and|than|does|do|has|have|made|empty|clear|free|open|closed)\b|\s*[?.,!:;]|$)",
    re.IGNORECASE,
)
_PLACE_WORDS = frozenset(
    {"left", "right", "front", "back", "top", "bottom", "middle", "side", "other", "same"}
)
_PROPERTY_WORDS = frozenset(
    {"colour", "color", "material", "size", "shape", "height", "name", "kind", "type", "number", "amount"}
)
"""Nouns that name what is asked about an object ("the colour of the couch"), not the object."""
_POSSESSIVE = re.compile(r"\b(?:the|a|an|my)\s+[a-z][a-z ]*?'s\s+", re.IGNORECASE)
"""A possessor before the object ("the kitchen's table" -> "the table")."""
_QUANTIFIERS = frozenset({"one", "only", "single", "same"})
_WHOLE_HOME = re.compile(
    r"\b(?:how many|number of|count|is there|are there|was there|were there|any|anywhere|"
    r"taller|shorter|higher|lower|bigger|larger|smaller|longer|wider)\b|\bor the\b|"
    r"\b(?:have|has|contain|contains) (?:a|an|any)\b",
    re.IGNORECASE,
)
"""Questions answered only after seeing the whole home: counts, existence and comparisons."""
_OBJECT = re.compile(
    r"^(?:please\s+)?(?:find|go to|go back to|search for|navigate to|locate|look for|get to|reach)?\s*"
    r"(?:the|a|an|some|my)?\s*(?P<label>.+?)(?:\s+(?:described in|shown in)\b.*)?[.!\s]*$",
    re.IGNORECASE,
)


def object_label(goal: str) -> str:
    """The object words of a goal phrase: 'Find a potted plant.' -> 'potted plant'."""
    match = _OBJECT.match(goal.strip())
    label = match.group("label") if match else goal
    return " ".join(label.split()).strip(" .!?,;:").lower() or "object"


def _search(first: str, find: str) -> str:
    """Try `first` (e.g. remembered objects), then search until `find` returns something; go there, stop."""
    return (
        f"target = {first}\n"
        f"while not is_found(target) and explore_scene():\n"
        f"    target = {find}\n"
        f"if is_found(target):\n"
        f"    navigate_to(target)\n"
        f"stop()\n"
    )


def goal_program(goal: str, verify: bool = False) -> str:
    """The program block for one navigation goal phrase: search, go there, stop() once (also when the goal
    was not found, so that in a sequence the k-th stop() ends the k-th goal). With `verify`, an object goal's
    candidates are checked from close by before the search ends (`verify()`: a detection not seen again is
    dropped and the search goes on)."""
    given = _DESCRIPTION.search(goal) or _IMAGE.search(goal)
    if given:
        return _search(f"match({given['input']})", f"match({given['input']})")
    label = object_label(goal)
    if verify:
        return _search(f"verify(recall({label!r}))", f"verify(detect({label!r}))")
    return _search(f"recall({label!r})", f"detect({label!r})")


def question_subject(question: str) -> str | None:
    """The object a question is about, from its words ('What color is the red couch?' -> 'red couch')."""
    question = _POSSESSIVE.sub("the ", question)
    for match in _SUBJECT.finditer(question):
        words = [w for w in match.group("subject").lower().split() if w not in _QUANTIFIERS][:2]
        if words and words[0] not in _PLACE_WORDS and words[-1] not in _PROPERTY_WORDS:
            return " ".join(words)
    return None


def asks_about_whole_home(question: str) -> bool:
    """Whether a question needs the whole home seen: how many, is there, which of two is taller."""
    return bool(_WHOLE_HOME.search(question))


def question_program(question: str) -> str:
    """Look around, search a bounded number of steps for the question's object and go to it, then answer;
    a question about the whole home (counts, existence, comparisons) or one naming no object explores
    (bounded) before answering.

    The search is bounded so the answer is always given within the step budget."""
    ask = f"return answer({question.strip()!r})\n"
    subject = question_subject(question)
    if subject is None or asks_about_whole_home(question):
        return (
            "look_around()\n"
            f"for step in range({EQA_EXPLORE_STEPS}):\n"
            "    if not explore_scene():\n"
            "        break\n" + ask
        )
    return (
        "look_around()\n"
        f"target = recall({subject!r})\n"
        f"for step in range({EQA_EXPLORE_STEPS}):\n"
        "    if is_found(target) or not explore_scene():\n"
        "        break\n"
        f"    target = detect({subject!r})\n"
        "if is_found(target):\n"
        "    navigate_to(target)\n" + ask
    )


def template_program(task: str, instruction: str) -> str:
    """The program text for a task's instruction (a question, or one or more goals joined by 'then')."""
    text = instruction.strip()
    if task in QUESTION_TASKS or text.endswith("?"):
        return question_program(text)
    goals = [part for part in GOAL_SEPARATOR.split(text) if part.strip()]
    return "".join(goal_program(goal, verify=task in VERIFY_TASKS) for goal in goals)


class TemplateGenerator(ProgramGenerator):
    """Programs from fixed templates; no model, no network, same output for the same instruction."""

    name = "template"
    model = "template"

    def generate(self, task: str, instruction: str) -> GenerationRecord:
        text = template_program(task, instruction)
        record = GenerationRecord(task, instruction, self.name, self.model, "template", None, raw_text=text)
        try:
            program = parse(text, toolbox=toolbox_for_task(task))
        except ProgramError as error:
            record.errors.append(str(error))
            record.failure_reason = f"template program is invalid: {error}"
            return record
        record.program, record.parsed = program.source, program
        return record
