"""ORACLE image-goal recognition: which annotated instance a goal picture shows, read from its semantic render.

The oracle perceives the goal picture the way the oracle detector perceives views (instance ids from the
simulator), so "is this the object in the picture?" becomes "is this the same instance?". The picture's subject
is the instance it is aimed at: GOAT image goals are rendered by a level camera at a view point of the goal,
turned toward it, so the goal lies on the picture's vertical centre line but may sit above or below the frame's
centre (a picture on the wall, a trash can on the floor) while a larger instance fills the centre. Only objects
the agent has itself observed can be returned as the goal; the picture alone gives no position.
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import MatcherConfig
from tango.perception.image_goal_search import IMAGE_GOAL_LABEL
from tango.perception.interfaces import Recollection, ViewLog
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.oracle.scene import OracleScene
from tango.perception.registry import register
from tango.types.goals import GoalImage


class OracleImageMatcher:
    """Names the instance a goal picture is aimed at (module docstring)."""

    def __init__(self, min_pixels: int) -> None:
        self.min_pixels = min_pixels

    def goal_instance(
        self, semantic: np.ndarray | None, camera_pose: np.ndarray | None, scene: OracleScene
    ) -> int | None:
        """Of the annotated instances covering `min_pixels` of the picture, the one whose box centre lies at the
        smallest horizontal angle from the camera's forward direction; None when none covers that many."""
        if semantic is None or camera_pose is None:
            raise ValueError(
                "the oracle image matcher needs the goal picture's semantic frame and camera pose (none was given)"
            )
        ids, counts = np.unique(semantic[semantic > 0], return_counts=True)
        candidates = [
            int(i) for i, n in zip(ids.tolist(), counts.tolist(), strict=True)
            if n >= self.min_pixels and int(i) in scene.objects
        ]  # fmt: skip
        if not candidates:
            return None
        forward = np.asarray(camera_pose, dtype=np.float64)[:3, :3] @ np.array([0.0, 0.0, -1.0])
        camera = np.asarray(camera_pose, dtype=np.float64)[:3, 3]
        heading = np.arctan2(forward[0], forward[2])

        def off_axis(object_id: int) -> float:
            to_centre = scene.objects[object_id].center - camera
            angle = np.arctan2(to_centre[0], to_centre[2]) - heading
            return abs(float(np.arctan2(np.sin(angle), np.cos(angle))))

        return min(candidates, key=off_axis)


class OracleImageLocator:
    """ORACLE image goals: the goal picture's instance, where the agent last saw it (never an unseen object)."""

    def __init__(self, matcher: OracleImageMatcher, truth: GroundTruth) -> None:
        self.matcher = matcher
        self.truth = truth
        self._instance: tuple[np.ndarray | None, int | None] | None = None

    def locate(self, goal: GoalImage, views: ViewLog) -> list[Recollection]:
        """The goal instance at its last observed point, if the agent has observed it."""
        instance = self._goal_instance(goal)
        entry = None if instance is None else self.truth.observed.get(instance)
        if entry is None:
            return []
        key = f"{IMAGE_GOAL_LABEL}#{instance}"
        return [Recollection(IMAGE_GOAL_LABEL, entry.last_point, 1.0, key)]

    def _goal_instance(self, goal: GoalImage) -> int | None:
        """`goal_instance` of the goal picture, kept for the last picture asked about: a search asks about the
        same picture every step (the frame is recognised by identity and held, so no other can take its id)."""
        semantic = goal.semantic
        if self._instance is None or self._instance[0] is not semantic or semantic is None:
            found = self.matcher.goal_instance(semantic, goal.camera_pose, self.truth.scene)
            self._instance = (semantic, found)
        return self._instance[1]


@register("matcher", "oracle", oracle=True)
def oracle_image_locator(config: MatcherConfig, ctx: OracleContext) -> OracleImageLocator:
    return OracleImageLocator(OracleImageMatcher(ctx.ground_truth.min_pixels), ctx.ground_truth)
