"""The interface the built-in Habitat primitives call (`ctx.agent.<method>`).

The real agent (`tango.agent.habitat_agent`) implements it over the simulator, maps, navigation and
perception; tests implement it over a toy world. Implementations charge every environment action to the
episode's `Budget` (`budget.charge_steps(1)`), which raises `BudgetExhausted` when the shared step budget
is spent, so a primitive such as `navigate_to` can never overrun it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from tango.types.goals import GoalImage, ObjectHandle, Position


@runtime_checkable
class HabitatAgentAPI(Protocol):
    """What the Habitat primitives need from an agent. Every method that moves the agent charges the budget."""

    @property
    def steps_used(self) -> int:
        """Environment steps taken so far in this episode."""
        ...

    def explore_step(self) -> bool:
        """Take one exploration step (e.g. toward the best frontier); False when nothing is left to explore."""
        ...

    def detect(self, label: str) -> list[ObjectHandle]:
        """Objects matching `label` in the current view and the map, best first (empty when none)."""
        ...

    def match_image(self, image: GoalImage) -> list[ObjectHandle]:
        """Objects seen so far that look like the goal image, best first."""
        ...

    def match_description(self, description: str) -> list[ObjectHandle]:
        """Objects seen so far that fit a free-text description, best first."""
        ...

    def navigate_to(self, target: ObjectHandle | Position) -> bool:
        """Drive to an object or a world position; True when it ends within reach of it."""
        ...

    def verify(self, target: ObjectHandle) -> ObjectHandle | None:
        """Go to a detected object and look again: the object as re-detected from close by, or None when it
        is not seen again (the agent then forgets it and ignores detections of its label there)."""
        ...

    def answer(self, question: str, image: GoalImage | None = None) -> str:
        """Answer a question about what the agent sees and has seen (VQA over the current view / memory), or
        about `image` when one is given."""
        ...

    def classify_room(self) -> str:
        """The room type the agent stands in (e.g. kitchen)."""
        ...

    def look_around(self, degrees: int = 360) -> None:
        """Turn in place by `degrees` (a full circle by default), updating the maps."""
        ...

    def map_scene(self, label: str) -> None:
        """Score the value map (and so the exploration frontiers) for `label`."""
        ...

    def perceived_objects(self) -> list[ObjectHandle]:
        """Every object the agent has recognised so far in the episode, best first."""
        ...

    def agent_position(self) -> Position:
        """Where the agent stands (x, y, z)."""
        ...

    def turn_left(self) -> None:
        """One turn_left action."""
        ...

    def turn_right(self) -> None:
        """One turn_right action."""
        ...

    def look_up(self) -> None:
        """One look_up action."""
        ...

    def look_down(self) -> None:
        """One look_down action."""
        ...

    def stop(self) -> None:
        """Declare the current goal reached: stop, or subtask_stop in multi-goal episodes."""
        ...

    def recall(self, target: str) -> list[ObjectHandle]:
        """Objects matching `target` remembered from earlier in the episode (earlier subtasks too)."""
        ...
