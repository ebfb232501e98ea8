"""The built-in Habitat navigation toolbox: primitives over a `HabitatAgentAPI` backend (`ctx.agent`)."""

from __future__ import annotations

from typing import Any

from tango.primitives.arguments import finite_position, label_text, question_text
from tango.primitives.context import AgentContext
from tango.primitives.registry import define_input, define_toolbox, primitive
from tango.primitives.rooms import LAST_ANSWER, answer_image, is_room_name, room_handles
from tango.types.goals import GoalImage, ObjectHandle, Position

TOOLBOX = "habitat"

define_toolbox(
    TOOLBOX,
    description="Embodied search, navigation and question answering in Habitat scenes.",
    system_prompt_path="habitat/system.txt",
    examples_path="habitat/examples.txt",
)
define_input(
    TOOLBOX,
    "goal_image",
    "GoalImage | None",
    "the picture of the goal object when the goal is given as an image (else None); pass it to match().",
)
define_input(
    TOOLBOX,
    "goal_description",
    "str | None",
    "the text describing the goal object when the goal is given as a description (else None); "
    "pass it to match().",
)
define_input(
    TOOLBOX,
    "goal_images",
    "list[GoalImage] | None",
    "the goal pictures of a sequence of goals, numbered in the order the instruction names them "
    "(goal_images[0] is the first); pass one to match().",
)
define_input(
    TOOLBOX,
    "goal_descriptions",
    "list[str] | None",
    "the goal descriptions of a sequence of goals, numbered in the order the instruction names them "
    "(goal_descriptions[0] is the first); pass one to match().",
)


def _target(value: Any) -> ObjectHandle | Position:
    """An object or position from what a program passes: a handle, a non-empty list of handles, [x, y, z]."""
    if isinstance(value, ObjectHandle):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, ObjectHandle) for v in value):
        return max(value, key=lambda handle: handle.score)
    if (
        isinstance(value, (list, tuple))
        and len(value) == 3
        and all(isinstance(v, (int, float)) for v in value)
    ):
        return finite_position(value, "navigate_to")
    if isinstance(value, (list, tuple)) and not value:
        raise ValueError("nothing to navigate to: the list of objects is empty (check is_found first)")
    raise TypeError(
        f"navigate_to needs an object, a list of objects or [x, y, z], got {type(value).__name__}"
    )


def _objects(value: Any, primitive_name: str) -> list[ObjectHandle]:
    if isinstance(value, ObjectHandle):
        return [value]
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, ObjectHandle)]
    raise TypeError(f"{primitive_name} needs the result of detect/match/recall, got {type(value).__name__}")


@primitive(explores=True)
def explore_scene(ctx: AgentContext) -> bool:
    """Take one exploration step toward unexplored space; False when the scene is fully explored.

    A bare `explore_scene()` followed by statements means: explore one step, run the statements,
    repeat until they return, `stop()` ends the search, or the step budget runs out.
    """
    return bool(ctx.agent.explore_step())


@primitive
def detect(ctx: AgentContext, label: str) -> list[ObjectHandle]:
    """Objects of category `label` (open vocabulary, e.g. 'red chair') seen now or on the map, best first."""
    label = label_text(label, "detect")
    if is_room_name(label):
        return room_handles(ctx, label)
    return list(ctx.agent.detect(label))


@primitive
def is_found(ctx: AgentContext, objects: list[ObjectHandle]) -> bool:
    """True when detect/match/recall returned at least one object."""
    return bool(_objects(objects, "is_found"))


@primitive
def count(ctx: AgentContext, objects: list[ObjectHandle]) -> int:
    """How many objects detect/match/recall returned."""
    return len(_objects(objects, "count"))


@primitive
def navigate_to(ctx: AgentContext, target: ObjectHandle | list[ObjectHandle] | list[float]) -> bool:
    """Go to an object (or the best of a list of objects, or a position [x, y, z]); True when reached."""
    return bool(ctx.agent.navigate_to(_target(target)))


@primitive(tasks=("objectnav", "ovon"))
def verify(ctx: AgentContext, objects: list[ObjectHandle]) -> list[ObjectHandle]:
    """Go close to the first of `objects` (from detect/recall) and look again: [it] when it is seen there
    again, else [] (a false detection, then ignored for the rest of the episode).

    A detector's mistakes are drawn per view, so a second look from close by tells most of them from the real
    object. Offered to the model for ObjectNav and OVON (`tasks`), whose prompt examples and templates call it;
    GOAT's and OpenEQA's prompts and grammars do not list it, though their programs may call it."""
    candidates = _objects(objects, "verify")
    if not candidates:
        return []
    seen = ctx.agent.verify(candidates[0])
    return [] if seen is None else [seen]


@primitive
def answer(ctx: AgentContext, question: str, image: Any = None) -> str:
    """Answer a question about what the agent sees now and has seen, as a short text."""
    question = question_text(question, "answer")
    ctx.shared[LAST_ANSWER] = text = str(ctx.agent.answer(question, answer_image(image)))
    return text


@primitive
def match(ctx: AgentContext, goal: GoalImage | str) -> list[ObjectHandle]:
    """Objects seen so far that match a goal given as goal_image or goal_description, best first."""
    if isinstance(goal, GoalImage):
        return list(ctx.agent.match_image(goal))
    if isinstance(goal, str) and goal:
        return list(ctx.agent.match_description(question_text(goal, "match")))
    raise TypeError(f"match needs goal_image or a description text, got {type(goal).__name__}")


@primitive
def classify_room(ctx: AgentContext, room_name: str | None = None) -> str | list[ObjectHandle]:
    """The type of the room the agent is in, e.g. 'kitchen', 'bedroom'."""
    if room_name is None:
        return str(ctx.agent.classify_room())
    return room_handles(ctx, label_text(room_name, "classify_room"))


@primitive
def look_around(ctx: AgentContext, degrees: int = 360) -> None:
    """Turn a full circle in place (or `degrees`) to see everything around."""
    ctx.agent.look_around(degrees)


@primitive
def look_up(ctx: AgentContext) -> None:
    """Tilt the camera up by one step."""
    ctx.agent.look_up()


@primitive
def look_down(ctx: AgentContext) -> None:
    """Tilt the camera down by one step."""
    ctx.agent.look_down()


@primitive
def turn_left(ctx: AgentContext) -> None:
    """Turn left by one step."""
    ctx.agent.turn_left()


@primitive
def turn_right(ctx: AgentContext) -> None:
    """Turn right by one step."""
    ctx.agent.turn_right()


@primitive
def recall(ctx: AgentContext, target: str) -> list[ObjectHandle]:
    """Objects matching `target` remembered from earlier in the episode (e.g. a previous goal), best first."""
    return list(ctx.agent.recall(label_text(target, "recall")))


@primitive(ends_search=True)
def stop(ctx: AgentContext) -> None:
    """Declare the current goal reached here; it also ends the enclosing explore_scene() search loop."""
    ctx.agent.stop()
