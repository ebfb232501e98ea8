"""The template generator's OpenEQA path: it searches for the object a question is about (not the property
asked about it), and explores the whole home before answering counts, existence and comparisons."""

from __future__ import annotations

import pytest

from tango.programs.generators.template import asks_about_whole_home, question_program, question_subject


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Tell me the colour of the one couch in this home.", "couch"),
        ("What is the material of the table in the kitchen?", "table"),
        ("What colour is the kitchen's table?", "table"),
        ("What is the desk made out of?", "desk"),
        ("Which room is the washing machine in?", "washing machine"),
    ],
)
def test_the_subject_is_the_questions_object(question: str, subject: str) -> None:
    assert question_subject(question) == subject
    assert f"detect({subject!r})" in question_program(question)


@pytest.mark.parametrize(
    "question",
    [
        "How many bedrooms does this apartment have?",
        "Is there a pillow in the living room?",
        "Does the kitchen have a sink?",
        "Which is taller, the refrigerator or the bathtub?",
    ],
)
def test_whole_home_questions_explore_before_answering(question: str) -> None:
    assert asks_about_whole_home(question)
    program = question_program(question)
    assert "detect(" not in program and "if not explore_scene():" in program
    assert program.rstrip().endswith(f"return answer({question!r})")


def test_questions_about_one_object_are_not_whole_home() -> None:
    assert not asks_about_whole_home("What colour is the bed?")
    assert not asks_about_whole_home("Where is the laptop?")
