"""Frontier choice for exploration: best value (or nearest when nothing is scored), with hysteresis so the agent
keeps its current frontier unless another is clearly better, a blacklist of frontiers it gave up on (cleared
once, when nothing else is left, to give them a second chance), and VLFM's acyclic rule: a new frontier is
never one already chosen from the same place (VLFM `AcyclicEnforcer`, bdaiinstitute/vlfm
`vlfm/policy/utils/acyclic_enforcer.py`), so an agent turning in place cannot swap between two frontiers
forever (each swap restarts the stall count, so the stall rule alone never ends such a loop)."""

from __future__ import annotations

import numpy as np

from tango.mapping.value_map import ValueMap
from tango.navigation.config import ExploreConfig

SAME_FRONTIER_DISTANCE = 1.0
BLACKLIST_RADIUS = 0.5
PLACE_DECIMALS = 2
"""Positions are rounded to 1 cm when (agent place, frontier) choices are remembered for the acyclic rule."""


class FrontierSelector:
    """Keeps the current frontier target across steps; `choose` returns the frontier to head for, or None."""

    def __init__(self, config: ExploreConfig) -> None:
        self.config = config
        self.reset()

    def reset(self) -> None:
        """Forget the current target and the blacklist (the random policy's generator restarts from its seed)."""
        self._rng = np.random.default_rng(self.config.seed)
        self.target: np.ndarray | None = None
        self.target_score: float | None = None
        self.score_kind = ""
        self._blacklist: list[np.ndarray] = []
        self._chosen: set[tuple[float, float, float, float]] = set()
        self._retried = False
        self._reset_progress()

    def _reset_progress(self) -> None:
        self._best_remaining = np.inf
        self._stalled_steps = 0
        self._steps_on_target = 0

    def stalled(self, remaining: float, replanned: bool) -> bool:
        """Record the path length still to go to the current target (re-baselined when the plan changed, since
        new walls lengthen it); True once it has not shrunk by frontier_progress metres for frontier_patience
        steps, or after max_steps_per_frontier steps in all."""
        self._steps_on_target += 1
        if replanned:
            self._best_remaining = remaining
        if remaining < self._best_remaining - self.config.frontier_progress:
            self._best_remaining = remaining
            self._stalled_steps = 0
        else:
            self._stalled_steps += 1
        return (
            self._stalled_steps > self.config.frontier_patience
            or self._steps_on_target > self.config.max_steps_per_frontier
        )

    def give_up(self) -> None:
        """Blacklist the current target (reached, unreachable or out of step budget) and drop it."""
        if self.target is not None:
            self._blacklist.append(self.target.copy())
        self.target = self.target_score = None
        self._reset_progress()

    def _allowed(self, frontiers: np.ndarray) -> np.ndarray:
        if not self._blacklist or len(frontiers) == 0:
            return frontiers
        banned = np.array(self._blacklist)
        d = np.hypot(frontiers[:, None, 0] - banned[None, :, 0], frontiers[:, None, 2] - banned[None, :, 2])
        return frontiers[(d > BLACKLIST_RADIUS).all(axis=1)]

    def choose(
        self, frontiers: np.ndarray, position: np.ndarray, value_map: ValueMap | None
    ) -> np.ndarray | None:
        """Pick the frontier to explore; scores are values near each frontier (max over prompts) when a value map
        has seen anything, else negative distance; the current target is kept within the switch margin."""
        candidates = self._allowed(frontiers)
        if len(candidates) == 0 and self._blacklist and not self._retried:
            self._blacklist, self._retried = [], True
            candidates = frontiers
        if len(candidates) == 0:
            self.target = self.target_score = None
            return None
        distance = np.hypot(candidates[:, 0] - position[0], candidates[:, 2] - position[2])
        if self.config.frontier_policy == "random":
            scores = self._rng.random(len(candidates))
            margin, self.score_kind = 1.0, "random"
        elif (
            self.config.frontier_policy != "nearest" and value_map is not None and value_map.has_confidence()
        ):
            scores = value_map.values_near(candidates).max(axis=1)
            margin, self.score_kind = self.config.frontier_switch_margin, "value"
        else:
            scores = -distance
            margin, self.score_kind = self.config.frontier_switch_distance, "negative distance"
        best = int(np.argmax(scores))
        kept = False
        if self.target is not None:
            offsets = np.hypot(candidates[:, 0] - self.target[0], candidates[:, 2] - self.target[2])
            current = int(np.argmin(offsets))
            kept = offsets[current] <= SAME_FRONTIER_DISTANCE and scores[current] >= scores[best] - margin
            if kept:
                best = current
            else:
                self._reset_progress()
        if not kept:
            best = self._acyclic(candidates, scores, distance, position)
        self._chosen.add(self._choice(position, candidates[best]))
        self.target, self.target_score = candidates[best].copy(), float(scores[best])
        return self.target

    @staticmethod
    def _choice(position: np.ndarray, frontier: np.ndarray) -> tuple[float, float, float, float]:
        """The remembered (agent place, frontier) pair of one choice, rounded (PLACE_DECIMALS)."""
        values = np.round([position[0], position[2], frontier[0], frontier[2]], PLACE_DECIMALS) + 0.0
        return (float(values[0]), float(values[1]), float(values[2]), float(values[3]))

    def _acyclic(
        self, candidates: np.ndarray, scores: np.ndarray, distance: np.ndarray, position: np.ndarray
    ) -> int:
        """The best-scoring candidate not already chosen from this place; when every one was, the farthest
        (VLFM's fallback when all frontiers are cyclic)."""
        for index in np.argsort(-scores, kind="stable"):
            if self._choice(position, candidates[index]) not in self._chosen:
                return int(index)
        return int(np.argmax(distance))
