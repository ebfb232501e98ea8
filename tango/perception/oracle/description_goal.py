"""ORACLE description goals: the observed instances of the category a description names that satisfy every
fact it states (attribute values, room, nearby objects), scored by tango.perception.oracle.description."""

from __future__ import annotations

from tango.perception.config import DescriptionConfig
from tango.perception.interfaces import DetectFn, Recollection
from tango.perception.oracle.description import OracleDescriptionScorer
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.types.observation import Observation


class OracleDescriptionMatcher:
    """Matches a description against the annotated objects the agent has observed (never the unseen scene)."""

    def __init__(self, scorer: OracleDescriptionScorer, truth: GroundTruth) -> None:
        self.scorer = scorer
        self.truth = truth

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]:
        """Observed instances of the described category that satisfy every stated fact (oracle scores are
        similarity + satisfied facts), keyed by instance."""
        stated = self.scorer.stated(description)
        if not stated.category:
            return []
        seen = self.truth.observed.of_category(stated.category)
        scores = self.scorer.score_instances(
            description, stated.category, [entry.object.id for entry in seen]
        )
        threshold = float(stated.count())
        return [
            Recollection(description, entry.last_point, float(score), f"{description}#{entry.object.id}")
            for entry, score in zip(seen, scores)
            if score >= threshold
        ]


@register("description", "oracle", oracle=True)
def oracle_description_matcher(config: DescriptionConfig, ctx: OracleContext) -> OracleDescriptionMatcher:
    truth = ctx.ground_truth
    scorer = OracleDescriptionScorer(truth.scene, truth.observed, ctx.models.text(config.text_model))
    return OracleDescriptionMatcher(scorer, truth)
