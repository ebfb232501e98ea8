"""ORACLE image-goal recognition: which annotated instance a goal picture shows, read from its semantic render.

The oracle perceives the goal picture the way the oracle detector perceives views (instance ids from the
simulator), so "is this the object in the picture?" becomes "is this the same instance?". Only objects the
agent has itself observed can be returned as the goal; the picture alone gives no position.
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import MatcherConfig
from tango.perception.image_goal_search import IMAGE_GOAL_LABEL
from tango.perception.interfaces import Recollection, ViewLog
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.types.goals import GoalImage

CENTRE_FRACTION = 1.0 / 3.0


class OracleImageMatcher:
    """Names the instance at the centre of a goal picture's semantic frame (the one the picture is framed on)."""

    def __init__(self, min_pixels: int) -> None:
        self.min_pixels = min_pixels

    def goal_instance(self, semantic: np.ndarray | None) -> int | None:
        """The most common non-zero instance id in the central third of the frame, if it covers min_pixels."""
        if semantic is None:
            raise ValueError(
                "the oracle image matcher needs the goal picture's semantic frame (none was rendered)"
            )
        height, width = semantic.shape[:2]
        top, left = int(height * CENTRE_FRACTION), int(width * CENTRE_FRACTION)
        centre = semantic[top : height - top, left : width - left].reshape(-1)
        ids, counts = np.unique(centre[centre > 0], return_counts=True)
        if ids.size == 0:
            return None
        best = int(np.argmax(counts))
        if int((semantic == ids[best]).sum()) < self.min_pixels:
            return None
        return int(ids[best])


class OracleImageLocator:
    """ORACLE image goals: the goal picture's instance, where the agent last saw it (never an unseen object)."""

    def __init__(self, matcher: OracleImageMatcher, truth: GroundTruth) -> None:
        self.matcher = matcher
        self.truth = truth
        self._instance: tuple[np.ndarray | None, int | None] | None = None

    def locate(self, goal: GoalImage, views: ViewLog) -> list[Recollection]:
        """The goal instance at its last observed point, if the agent has observed it."""
        instance = self._goal_instance(goal.semantic)
        entry = None if instance is None else self.truth.observed.get(instance)
        if entry is None:
            return []
        key = f"{IMAGE_GOAL_LABEL}#{instance}"
        return [Recollection(IMAGE_GOAL_LABEL, entry.last_point, 1.0, key)]

    def _goal_instance(self, semantic: np.ndarray | None) -> int | None:
        """`goal_instance` of the goal picture, kept for the last picture asked about: a search asks about the
        same picture every step (the frame is recognised by identity and held, so no other can take its id)."""
        if self._instance is None or self._instance[0] is not semantic or semantic is None:
            self._instance = (semantic, self.matcher.goal_instance(semantic))
        return self._instance[1]


@register("matcher", "oracle", oracle=True)
def oracle_image_locator(config: MatcherConfig, ctx: OracleContext) -> OracleImageLocator:
    return OracleImageLocator(OracleImageMatcher(ctx.ground_truth.min_pixels), ctx.ground_truth)
