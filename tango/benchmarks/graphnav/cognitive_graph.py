"""The agent's cognitive graph: places (recognised landmarks) joined by corridors with directions in its own frame.

Built only from what the agent saw: the exploration views with their action labels, and the views of the
current trip. Directions are in the exploration frame (the first exploration heading is 0; left turns -1,
right turns +1, mod 4). A corridor seen in direction D from place A that ends at landmark B is the edge
A -D-> B and B -(D+2)-> A. A view with walls left and right and a corridor ahead only happens after turning
around at a dead end, so the agent knows when that happened.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tango.benchmarks.graphnav.conditions import SLOT_OFFSETS, SLOTS
from tango.benchmarks.graphnav.recognition import Reading

START_PLACE = "start"


def is_dead_end_view(reading: Reading) -> bool:
    """Walls left and right, a corridor ahead: the agent just turned around at a dead end."""
    return reading[0] is None and reading[1] is not None and reading[2] is None


@dataclass
class CognitiveGraph:
    """Places with per-direction neighbours (None = wall seen there), the explored route, and visited places."""

    edges: dict[str, dict[int, str | None]] = field(default_factory=dict)
    route: list[str] = field(default_factory=list)
    visited: set[str] = field(default_factory=set)
    aliases: dict[str, str] = field(default_factory=dict)

    def resolve(self, place: str) -> str:
        """The current name of a place ("start" becomes its landmark once that landmark is seen)."""
        while place in self.aliases:
            place = self.aliases[place]
        return place

    def _rename(self, old: str, new: str) -> None:
        """Merge place old into new: edges, references, the explored route and the visited set."""
        self.aliases[old] = new
        for direction, content in self.edges.pop(old, {}).items():
            self.edges.setdefault(new, {}).setdefault(direction, content)
        for known in self.edges.values():
            for direction, content in known.items():
                if content == old:
                    known[direction] = new
        self.route = [new if p == old else p for p in self.route]
        if old in self.visited:
            self.visited.discard(old)
            self.visited.add(new)

    def observe(self, place: str, heading: int, reading: Reading) -> None:
        """Record what the three sub-views at place (facing heading) show."""
        place = self.resolve(place)
        self.visited.add(place)
        for slot, content in zip(SLOTS, reading):
            direction = (heading + SLOT_OFFSETS[slot]) % 4
            if content is not None and self.edges.get(place, {}).get(direction) == START_PLACE:
                self._rename(START_PLACE, content)
            self.edges.setdefault(place, {})[direction] = content
            if content is not None:
                self.edges.setdefault(content, {})[(direction + 2) % 4] = place

    def connect(self, a: str, direction: int, b: str) -> None:
        self.edges.setdefault(a, {})[direction] = b
        self.edges.setdefault(b, {})[(direction + 2) % 4] = a

    def neighbors(self, place: str) -> dict[int, str]:
        return {d: p for d, p in self.edges.get(self.resolve(place), {}).items() if p is not None}

    def is_dead_end(self, place: str) -> bool:
        known = self.edges.get(place, {})
        return len(known) == 4 and len(self.neighbors(place)) == 1

    def matches(self, place: str, heading: int, reading: Reading) -> int | None:
        """How well known slots agree with reading at (place, heading), None if one contradicts it.

        A matching landmark scores 2, a matching wall 1; an unseen landmark where the unnamed start place is
        expected scores 0 (it is consistent, but says little).
        """
        known = self.edges.get(self.resolve(place), {})
        score = 0
        for slot, content in zip(SLOTS, reading):
            direction = (heading + SLOT_OFFSETS[slot]) % 4
            if direction not in known:
                continue
            expected = known[direction]
            if (expected is None) != (content is None):
                return None
            if expected is None:
                score += 1
            elif expected == content:
                score += 2
            elif expected != START_PLACE or content in self.edges:
                return None
        return score

    def candidates(self, reading: Reading) -> list[tuple[str, int]]:
        """The visited (place, heading) pairs that explain a reading best (several when it is ambiguous)."""
        scored = []
        for place in sorted(self.visited):
            for heading in range(4):
                score = self.matches(place, heading, reading)
                if score is not None:
                    scored.append((score, place, heading))
        best = max((score for score, _, _ in scored), default=None)
        return [(place, heading) for score, place, heading in scored if score == best]

    def advance(
        self, hypotheses: list[tuple[str, int]], slot: str, reading: Reading
    ) -> list[tuple[str, int]]:
        """The hypotheses that survive a move through slot followed by reading (best-scoring ones only)."""
        scored = []
        for place, heading in hypotheses:
            direction = (heading + SLOT_OFFSETS[slot]) % 4
            target = self.neighbors(place).get(direction)
            if target is None:
                continue
            arrived = (direction + 2) % 4 if is_dead_end_view(reading) else direction
            score = self.matches(target, arrived, reading)
            if score is not None:
                scored.append((score, target, arrived))
        best = max((score for score, _, _ in scored), default=None)
        return [(place, heading) for score, place, heading in scored if score == best]

    def plan(self, place: str, heading: int, goal: str) -> list[tuple[str, str]] | None:
        """Shortest sequence of (slot, place) moves from (place, heading) to goal, never stepping backwards."""
        place, goal = self.resolve(place), self.resolve(goal)
        start = (place, heading)
        previous: dict[tuple[str, int], tuple[tuple[str, int], str, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            if state[0] == goal:
                moves = []
                while previous[state] is not None:
                    before, slot, reached = previous[state]  # type: ignore[misc]
                    moves.append((slot, reached))
                    state = before
                return moves[::-1]
            for slot in SLOTS:
                direction = (state[1] + SLOT_OFFSETS[slot]) % 4
                target = self.neighbors(state[0]).get(direction)
                if target is None:
                    continue
                arrived = (target, (direction + 2) % 4 if self.is_dead_end(target) else direction)
                if arrived not in previous:
                    previous[arrived] = (state, slot, target)
                    queue.append(arrived)
        return None

    def recalled_route(self, start: str, goal: str) -> list[str] | None:
        """The explored route between two places (backwards when goal came first), or None."""
        start, goal = self.resolve(start), self.resolve(goal)
        if start not in self.route or goal not in self.route:
            return None
        i, j = self.route.index(start), self.route.index(goal)
        return self.route[i : j + 1] if i <= j else self.route[j : i + 1][::-1]


def build_from_exploration(readings: list[Reading], actions: list[str | None]) -> tuple[CognitiveGraph, int]:
    """The graph of an exploration (readings and slot names of the moves); returns it and the final heading."""
    graph = CognitiveGraph()
    place, heading = START_PLACE, 0
    for index, (reading, action) in enumerate(zip(readings, actions)):
        if index > 0 and is_dead_end_view(reading):
            heading = (heading + 2) % 4
        graph.observe(place, heading, reading)
        graph.route.append(place)
        if action is None:
            break
        direction = (heading + SLOT_OFFSETS[action]) % 4
        reached = reading[SLOTS.index(action)]
        if reached is None:
            break
        graph.connect(place, direction, reached)
        place, heading = reached, direction
    return graph, heading
