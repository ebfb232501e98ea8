"""Image goals located by keypoint matching: the goal picture against the views the agent kept.

Registered as the `sift` and `lightglue` image-goal matchers. A goal is compared with every kept view once
(all earlier views on the first call, then only the new ones); the best match so far is where the goal is.
"""

from __future__ import annotations

from dataclasses import dataclass

from tango.perception.config import MatcherConfig
from tango.perception.context import BuildContext
from tango.perception.image_goal import ImageMatcher, LightGlueMatcher, SiftMatcher
from tango.perception.interfaces import Recollection, ViewLog
from tango.perception.registry import register
from tango.types.goals import GoalImage

IMAGE_GOAL_LABEL = "image goal"


@dataclass
class _Search:
    """How far one goal picture has been compared with the view log, and its best match so far."""

    goal: GoalImage
    generation: int
    checked: int = 0
    best: Recollection | None = None


class KeypointLocator:
    """`locate(goal, views)` with a pairwise matcher; restarts when the goal or the view log's generation changes."""

    def __init__(self, matcher: ImageMatcher) -> None:
        self.matcher = matcher
        self._search: _Search | None = None

    def locate(self, goal: GoalImage, views: ViewLog) -> list[Recollection]:
        """The best-matching kept view's centre point, if any view matches the goal picture."""
        search = self._search
        if search is None or search.goal is not goal or search.generation != views.generation:
            search = self._search = _Search(goal, views.generation)
        kept = views.views
        for view in kept[search.checked :]:
            result = self.matcher.match(goal.pixels, view.rgb)
            if (
                result.matched
                and view.point is not None
                and (search.best is None or result.score > search.best.score)
            ):
                search.best = Recollection(
                    IMAGE_GOAL_LABEL, view.point, float(result.score), IMAGE_GOAL_LABEL
                )
        search.checked = len(kept)
        return [search.best] if search.best is not None else []


@register("matcher", "sift")
def sift_locator(config: MatcherConfig, ctx: BuildContext) -> KeypointLocator:
    sift = SiftMatcher(config.ratio, config.min_inliers, config.max_features, config.ransac_reprojection_px,
                       config.contrast_threshold, config.edge_threshold)  # fmt: skip
    return KeypointLocator(sift)


@register("matcher", "lightglue")
def lightglue_locator(config: MatcherConfig, ctx: BuildContext) -> KeypointLocator:
    return KeypointLocator(
        LightGlueMatcher(
            config.lightglue_weights, config.disk_weights, config.min_inliers, config.ransac_reprojection_px
        )
    )
