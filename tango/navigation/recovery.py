"""Recovery shared by the point-goal controllers: after repeated forward steps that did not move the agent (or,
for the learned policy, a left/right turn loop), turn 60-150 degrees one random way and step forward, then hand
control back."""

from __future__ import annotations

import logging

import numpy as np

from tango.navigation.actions import MOVE_FORWARD, TURN_LEFT, TURN_RIGHT

LOG = logging.getLogger(__name__)


class CollisionRecovery:
    """Count blocked forward steps (`blocked`, `moved`) and alternating turns (`turned`); after `after` blocked
    steps without one that moved, or `after_oscillations` turns each the opposite of the one before, queue
    2-5 turns the same way and a forward step (`next_action` pops them). A limit <= 0 disables its rule."""

    def __init__(self, after: int, rng: np.random.Generator, after_oscillations: int = 0) -> None:
        self.after = after
        self.after_oscillations = after_oscillations
        self.rng = rng
        self.reset()

    def reset(self) -> None:
        """No collisions or turns counted, nothing queued."""
        self.collisions = 0
        self.alternations = 0
        self._last_turn: str | None = None
        self.queue: list[str] = []

    def _recover(self, position: np.ndarray, why: str) -> None:
        turns = int(self.rng.integers(2, 6))
        self.queue = [self.random_turn()] * turns + [MOVE_FORWARD]
        self.collisions = self.alternations = 0
        self._last_turn = None
        LOG.debug("%s at %s: recovering with %s", why, position, self.queue)

    def turned(self, action: str, position: np.ndarray) -> None:
        """The agent turned; start a recovery when the last `after_oscillations` turns alternated."""
        self.alternations = self.alternations + 1 if self._last_turn not in (None, action) else 1
        self._last_turn = action
        if 0 < self.after_oscillations <= self.alternations:
            self._recover(position, "turning left and right")

    def random_turn(self) -> str:
        """turn_left or turn_right with equal chance."""
        return TURN_LEFT if self.rng.random() < 0.5 else TURN_RIGHT

    def moved(self) -> None:
        """A forward step moved the agent: the counts start again."""
        self.collisions = self.alternations = 0
        self._last_turn = None

    def blocked(self, position: np.ndarray) -> None:
        """A forward step did not move the agent; start a recovery after `after` of them."""
        self.collisions += 1
        if 0 < self.after <= self.collisions:
            self._recover(position, "stuck")

    def cancel(self) -> None:
        """Drop the queued recovery (another driver chose the action)."""
        self.queue = []

    def next_action(self) -> str | None:
        """The next queued recovery action, None when none is queued."""
        return self.queue.pop(0) if self.queue else None
