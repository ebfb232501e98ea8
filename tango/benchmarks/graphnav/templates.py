"""Template programs of the GraphNav toolbox, one per task (the offline default program source)."""

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

TEMPLATES = {"repeated": FOLLOW_EXPLORED, "reversed": FOLLOW_EXPLORED, "shortcut": SHORTCUT}


def template_program(task: str) -> str:
    if task not in TEMPLATES:
        raise ValueError(f"no GraphNav template for task {task!r}; one of {sorted(TEMPLATES)}")
    return TEMPLATES[task]
