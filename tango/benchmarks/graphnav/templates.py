"""Template programs of the GraphNav toolbox and the instruction an LLM generator gets, one per task."""

from __future__ import annotations

FOLLOW_EXPLORED = """build_cognitive_graph()
here = localize()
goal = goal_place()
route = recall_route(here, goal)
if not follow(route):
    navigate_to(goal)
"""

SHORTCUT = """build_cognitive_graph()
here = localize()
goal = goal_place()
navigate_to(goal)
"""

INSTRUCTIONS = {
    "repeated": "Go to the destination by repeating the explored route in the same direction.",
    "reversed": "Go to the destination by travelling the explored route in the opposite direction.",
    "shortcut": "Go to the destination by the shortest way you can infer.",
}
TEMPLATES = {"repeated": FOLLOW_EXPLORED, "reversed": FOLLOW_EXPLORED, "shortcut": SHORTCUT}


def template_program(task: str) -> str:
    if task not in TEMPLATES:
        raise ValueError(f"no GraphNav template for task {task!r}; one of {sorted(TEMPLATES)}")
    return TEMPLATES[task]
