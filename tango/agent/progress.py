"""When a drive toward a point has stalled: navigate_to's patience rule, kept apart so its cases are testable."""

from __future__ import annotations

import math


class DriveProgress:
    """Counts steps since the remaining path last shrank by `progress_step`; stalled after `patience` of them.

    A plan that grows by at least `detour_growth` in one step (the map showed a wall across the way and the
    planner found a detour) while the agent is still more than `near` from the point (straight line) starts
    the count again from the new length: a long detour is progress, not a stall. Near the point a growing plan
    means the point lies behind a wall on this side, and the drive stops there after `patience` steps, as it
    would without detours. A plan with no way through (infinite length) never shrinks, so it stalls too."""

    def __init__(self, progress_step: float, patience: int, detour_growth: float, near: float) -> None:
        self.progress_step = progress_step
        self.patience = patience
        self.detour_growth = detour_growth
        self.near = near
        self.best = math.inf
        self.last = math.inf
        self.since_best = 0

    def stalled(self, remaining: float, straight: float) -> bool:
        """Record this step's remaining path length and straight-line distance to the point; True once the
        drive has stalled."""
        grew = (
            math.isfinite(remaining)
            and math.isfinite(self.last)
            and remaining >= self.last + self.detour_growth
            and straight > self.near
        )
        self.last = remaining
        if grew or remaining < self.best - self.progress_step:
            self.best, self.since_best = remaining, 0
            return False
        self.since_best += 1
        return self.since_best > self.patience
