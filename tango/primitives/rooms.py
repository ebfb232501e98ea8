"""Rooms as TANGO's programs use them: `detect('kitchen')` and `classify_room('kitchen')` mean "is the agent
in a kitchen", answered by the room classifier and returned as a one-element list (empty when not)."""

from __future__ import annotations

from typing import Any

from tango.perception.detections import normalise_label
from tango.primitives.context import AgentContext
from tango.types.goals import GoalImage, ObjectHandle

ROOM_NAMES = frozenset(
    {
        "kitchen", "living room", "bedroom", "bathroom", "office", "dining room", "hallway", "laundry room",
        "garage", "closet", "basement", "attic", "lobby", "study", "nursery", "playroom", "pantry", "foyer",
        "entryway", "family room", "guest room", "master bedroom", "home office", "utility room", "gym",
        "toilet room", "restroom", "mudroom", "den", "corridor", "balcony", "porch", "patio",
    }
)  # fmt: skip
LAST_ANSWER = "last_answer"


def is_room_name(label: str) -> bool:
    return normalise_label(label) in ROOM_NAMES


def room_handles(ctx: AgentContext, room: str) -> list[ObjectHandle]:
    """[the room, where the agent stands] when the room classifier says the agent is in `room`, else []."""
    here = normalise_label(str(ctx.agent.classify_room()))
    wanted = normalise_label(room)
    if here != wanted and not (wanted in here or here in wanted):
        return []
    return [ObjectHandle(wanted, ctx.agent.agent_position(), 1.0, f"room:{wanted}")]


def answer_image(image: Any) -> GoalImage | None:
    """The picture `answer(question, image)` is asked about: a GoalImage (goal_image), else the current view."""
    return image if isinstance(image, GoalImage) else None
