"""A toy world implementing HabitatAgentAPI for tests: objects on a line of rooms, exploration reveals them.

The agent walks along +x; each explore step moves it 1 m (4 environment steps) and it sees objects within
`view_radius` of its position. Everything it does is charged to the episode Budget like the real agent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tango.trace.budget import Budget
from tango.types.goals import GoalImage, ObjectHandle, Position


@dataclass
class FakeObject:
    """An object of the toy world: category, position, room, words that describe it, a colour for images."""

    label: str
    position: Position
    room: str = "living room"
    description: str = ""
    color: tuple[int, int, int] = (128, 128, 128)


@dataclass
class FakeWorld:
    """HabitatAgentAPI over a list of FakeObjects; `answers` maps question substrings to answers."""

    objects: list[FakeObject]
    budget: Budget = field(default_factory=Budget)
    length_m: float = 20.0
    view_radius: float = 2.5
    answers: dict[str, str] = field(default_factory=dict)
    mistaken: dict[int, str] = field(default_factory=dict)
    """Object index -> a label the detector also reports it as (a look-alike); verify() sees through it."""
    rejected: set[int] = field(default_factory=set)
    position: Position = (0.0, 0.0, 0.0)
    seen: dict[int, FakeObject] = field(default_factory=dict)
    stops: list[Position] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    @property
    def steps_used(self) -> int:
        return self.budget.steps

    def _act(self, action: str, steps: int = 1) -> None:
        self.budget.charge_steps(steps)
        self.actions.append(action)

    def _look(self) -> None:
        for index, obj in enumerate(self.objects):
            if math.dist(obj.position, self.position) <= self.view_radius:
                self.seen[index] = obj

    def _handles(self, indices: list[int], score: float = 0.9, label: str = "") -> list[ObjectHandle]:
        """Handles of objects, labelled `label` (what a detector was asked for) or their own label."""
        handles = [
            ObjectHandle(label or self.objects[i].label, self.objects[i].position, score, f"fake-{i}")
            for i in indices
        ]
        return sorted(handles, key=lambda h: math.dist(h.position, self.position))

    def explore_step(self) -> bool:
        if self.position[0] >= self.length_m:
            return False
        self._act("explore", 4)
        self.position = (self.position[0] + 1.0, 0.0, 0.0)
        self._look()
        return True

    def detect(self, label: str) -> list[ObjectHandle]:
        self._look()
        found = [
            i
            for i, o in self.seen.items()
            if label.lower() in (o.label, f"{o.description} {o.label}".strip(), self.mistaken.get(i))
            and i not in self.rejected
        ]
        return self._handles(found, label=label.lower() if any(i in self.mistaken for i in found) else "")

    def verify(self, target: ObjectHandle) -> ObjectHandle | None:
        self.navigate_to(target)
        index = int(target.object_id.removeprefix("fake-"))
        if self.objects[index].label == target.label:
            return target
        self.rejected.add(index)
        return None

    def match_image(self, image: GoalImage) -> list[ObjectHandle]:
        colour = tuple(int(c) for c in np.asarray(image.pixels).reshape(-1, 3).mean(axis=0).round())
        return self._handles([i for i, o in self.seen.items() if o.color == colour])

    def match_description(self, description: str) -> list[ObjectHandle]:
        words = set(description.lower().split())
        found = [i for i, o in self.seen.items() if o.label in words and set(o.description.split()) <= words]
        return self._handles(found)

    def navigate_to(self, target: ObjectHandle | Position) -> bool:
        goal = target.position if isinstance(target, ObjectHandle) else target
        distance = math.dist(goal, self.position)
        self._act("navigate", max(1, math.ceil(distance / 0.25)))
        self.position = goal
        self._look()
        return True

    def answer(self, question: str, image: GoalImage | None = None) -> str:
        for key, reply in self.answers.items():
            if key in question.lower():
                return reply
        return "unknown"

    def classify_room(self) -> str:
        nearest = min(self.objects, key=lambda o: math.dist(o.position, self.position), default=None)
        return nearest.room if nearest is not None else "unknown"

    def look_around(self, degrees: int = 360) -> None:
        self._act("look_around", max(1, round(12 * min(degrees, 360) / 360)))
        self._look()

    def map_scene(self, label: str) -> None:
        self.actions.append(f"map_scene:{label}")

    def perceived_objects(self) -> list[ObjectHandle]:
        return self._handles(list(self.seen))

    def agent_position(self) -> Position:
        return self.position

    def turn_left(self) -> None:
        self._act("turn_left")

    def turn_right(self) -> None:
        self._act("turn_right")

    def look_up(self) -> None:
        self._act("look_up")

    def look_down(self) -> None:
        self._act("look_down")

    def stop(self) -> None:
        self.stops.append(self.position)
        self.actions.append("stop")

    def recall(self, target: str) -> list[ObjectHandle]:
        return self._handles([i for i, o in self.seen.items() if target.lower() == o.label])


def apartment(budget: Budget | None = None) -> FakeWorld:
    """A small world used across tests: chairs, a red and a blue couch, a bed, a fridge, a plant."""
    objects = [
        FakeObject("plant", (1.0, 0.0, 0.0), "hallway", "green"),
        FakeObject("chair", (4.0, 0.0, 0.5), "kitchen", "wooden", (150, 100, 50)),
        FakeObject("refrigerator", (5.0, 0.0, -0.5), "kitchen", "white", (250, 250, 250)),
        FakeObject("chair", (6.0, 0.0, 0.5), "kitchen", "metal", (90, 90, 90)),
        FakeObject("couch", (9.0, 0.0, 0.0), "living room", "red", (200, 20, 20)),
        FakeObject("tv", (10.0, 0.0, 1.0), "living room", "black", (10, 10, 10)),
        FakeObject("couch", (12.0, 0.0, 0.0), "living room", "blue", (20, 20, 200)),
        FakeObject("bed", (16.0, 0.0, 0.0), "bedroom", "double", (240, 240, 200)),
    ]
    return FakeWorld(
        objects,
        budget=budget or Budget(),
        answers={"color": "red", "how many": "2", "where": "in the kitchen", "refrigerator": "white"},
    )
