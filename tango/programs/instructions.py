"""The instruction texts episodes give the program generator, one builder per goal kind.

The harness builds instructions with these functions and the template generator reads them back, so both
agree on the wording; an LLM sees the same text. Non-text goals are named by the program variable that holds
them (`goal_image`, `goal_description`), which is bound before the program starts.
"""

from __future__ import annotations


def object_instruction(category: str) -> str:
    """ObjectNav, OVON and GOAT object goals: 'Find a chair.'"""
    article = "an" if category[:1].lower() in "aeiou" else "a"
    return f"Find {article} {category.strip()}."


def description_instruction(description: str, category: str = "") -> str:
    """GOAT description goals; the description itself is also bound to `goal_description`."""
    return f"Find the {category.strip() or 'object'} described in goal_description: {description.strip()}"


def image_instruction(category: str = "") -> str:
    """GOAT image goals; the picture is bound to `goal_image`."""
    return f"Find the {category.strip() or 'object'} shown in goal_image."


def question_instruction(question: str) -> str:
    """OpenEQA questions are passed as written."""
    return question.strip()
