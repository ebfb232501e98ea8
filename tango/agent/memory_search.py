"""Where explore_scene() goes first when the search target changes: the place the feature memory matched to the
new target (TANGO's memory mechanism), then a turn around there, then frontier exploration as usual."""

from __future__ import annotations

import numpy as np

from tango.agent.config import AgentSettings
from tango.navigation.actions import STOP, TURN_LEFT
from tango.navigation.navigator import Navigator


class MemorySearch:
    """Head for a remembered point until within reach (or no longer getting closer), then look around once."""

    def __init__(self, point: np.ndarray, settings: AgentSettings) -> None:
        self.point = np.asarray(point, dtype=np.float64)
        self.settings = settings
        self.heading = True
        self.turns_left = settings.scan_turns
        self._best = float("inf")
        self._since_best = 0

    def next_action(self, navigator: Navigator) -> str | None:
        """The next action of the memory search, or None once it is over."""
        if self.heading:
            action = navigator.next_action_to(self.point, self.settings.reach_distance, object_goal=True)
            if action is not None and action != STOP and self._progressing(navigator.fmm.remaining_distance):
                return action
            self.heading = False
        if self.turns_left > 0:
            self.turns_left -= 1
            return TURN_LEFT
        return None

    def _progressing(self, remaining: float) -> bool:
        """False once within the arrival tolerance or after `navigate_patience` steps without getting closer."""
        if remaining <= self.settings.arrive_tolerance:
            return False
        if remaining < self._best - self.settings.progress_step:
            self._best, self._since_best = remaining, 0
        else:
            self._since_best += 1
        return self._since_best <= self.settings.navigate_patience
