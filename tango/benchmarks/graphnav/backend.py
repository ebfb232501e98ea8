"""The program agent's body in the maze: recognition, the cognitive graph, localisation, planning and moves.

The GraphNav toolbox's primitives call this object (`ctx.agent`). It sees only what the env shows an agent:
the exploration views with their action tokens, the destination image, the current view and action feedback.
"""

from __future__ import annotations

import logging

from tango.benchmarks.graphnav.cognitive_graph import (
    START_PLACE,
    CognitiveGraph,
    build_from_exploration,
    is_dead_end_view,
)
from tango.benchmarks.graphnav.conditions import SLOT_OFFSETS, SLOTS
from tango.benchmarks.graphnav.env import GraphNavEnv
from tango.benchmarks.graphnav.recognition import LandmarkRecognizer
from tango.trace.budget import Budget

log = logging.getLogger(__name__)


class MazeAgentBackend:
    """State of one trip as the agent knows it: its graph, where it thinks it is and which way it faces."""

    def __init__(
        self,
        env: GraphNavEnv,
        recognizer: LandmarkRecognizer,
        budget: Budget | None = None,
        max_localize_moves: int = 3,
    ) -> None:
        self.env = env
        self.max_localize_moves = max_localize_moves
        self.recognizer = recognizer
        self.budget = budget
        self.graph = CognitiveGraph()
        self.place: str | None = None
        self.heading = 0

    @property
    def done(self) -> bool:
        return self.env.state.done

    def build_graph(self) -> int:
        """Recall the exploration and build the cognitive graph from its views; returns the number of places."""
        steps = self.env.exploration()
        readings = [self.recognizer.read_view(step.view) for step in steps]
        actions = [None if s.action is None else self.env.condition.slot_of(s.action) for s in steps]
        self.graph, _ = build_from_exploration(readings, actions)
        return len(self.graph.edges)

    def localize(self) -> str | None:
        """Match the current view against the graph; sets and returns the current place.

        When several places look alike from here, the agent walks through an open corridor (at most
        max_localize_moves times) and keeps the hypotheses that also explain what it sees next.
        """
        reading = self.recognizer.read_view(self.env.observe())
        hypotheses = self.graph.candidates(reading)
        for _ in range(self.max_localize_moves):
            if len(hypotheses) <= 1 or self.done:
                break
            slot = next((s for s, content in zip(SLOTS, reading) if content is not None), None)
            if slot is None or not self._step(slot):
                break
            reading = self.recognizer.read_view(self.env.observe())
            hypotheses = self.graph.advance(hypotheses, slot, reading)
        if not hypotheses:
            log.info("localisation failed for reading %s", reading)
            return None
        self.place, self.heading = hypotheses[0]
        self.graph.observe(self.place, self.heading, reading)
        self.place = self.graph.resolve(self.place)
        return self.place

    def _step(self, slot: str) -> bool:
        """One environment action, charged to the program's step budget; True when the agent moved."""
        if self.budget is not None:
            self.budget.charge_steps()
        return self.env.step(self.env.condition.token_of(slot)).moved

    def goal_place(self) -> str:
        """The place whose landmark the destination image shows (the exploration start if none matches)."""
        key = self.recognizer.read_destination(self.env.destination())
        return key if key is not None and key in self.graph.edges else START_PLACE

    def move(self, slot: str) -> bool:
        """Take one action; on a move, update place, heading and the graph from the new view."""
        if self.done or self.place is None:
            return False
        direction = (self.heading + SLOT_OFFSETS[slot]) % 4
        if not self._step(slot):
            self.graph.edges.setdefault(self.place, {})[direction] = None
            return False
        reading = self.recognizer.read_view(self.env.observe())
        target = self.graph.neighbors(self.place).get(direction)
        if target is None:
            found = self.graph.candidates(reading)
            target = found[0][0] if found else f"unknown{self.env.num_steps}"
        self.place = self.graph.resolve(target)
        self.heading = (direction + 2) % 4 if is_dead_end_view(reading) else direction
        self.graph.observe(self.place, self.heading, reading)
        self.place = self.graph.resolve(self.place)
        return True

    def slot_towards(self, target: str) -> str | None:
        """The left/front/right slot leading to an adjacent place, or None (not adjacent, or behind)."""
        if self.place is None:
            return None
        target = self.graph.resolve(target)
        for direction, place in self.graph.neighbors(self.place).items():
            offset = (direction - self.heading) % 4
            if place == target and offset != 2:
                return {3: "left", 0: "front", 1: "right"}[offset]
        return None

    def follow(self, route: list[str]) -> bool:
        """Walk a list of places from the current one; False as soon as a move is impossible."""
        if not route or self.place is None:
            return False
        for target in route[1:] if self.graph.resolve(route[0]) == self.place else route:
            slot = self.slot_towards(target)
            if slot is None or not self.move(slot):
                return False
            if self.done:
                break
        return self.env.state.success

    def navigate_to(self, goal: str) -> bool:
        """Plan on the graph and move, replanning after every step, until the trip ends."""
        while not self.done and self.place is not None:
            moves = self.graph.plan(self.place, self.heading, goal)
            if moves:
                self.move(moves[0][0])
                continue
            open_slots = [
                s for s, content in zip(SLOTS, self.recognizer.read_view(self.env.observe())) if content
            ]
            if not open_slots or not self.move(open_slots[0]):
                break
        return self.env.state.success
