"""ORACLE description goals: the observed instances of the category a description names that satisfy every
constraint it states (attributes, room, nearby objects), scored by tango.perception.oracle.description."""

from __future__ import annotations

from tango.agent.observation import Observation
from tango.perception.config import DescriptionConfig
from tango.perception.detections import normalise_label
from tango.perception.interfaces import DetectFn, Recollection
from tango.perception.oracle.description import OracleDescriptionScorer
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register


class OracleDescriptionMatcher:
    """Matches a description against the annotated objects the agent has observed (never the unseen scene)."""

    def __init__(self, scorer: OracleDescriptionScorer, truth: GroundTruth) -> None:
        self.scorer = scorer
        self.truth = truth

    def described_category(self, description: str) -> str:
        """The observed category the description names first (the head noun, before any 'next to X'), the
        longer name on ties; else the text itself."""
        words = f" {normalise_label(description)} "
        named = [
            (words.find(f" {normalise_label(c)} "), -len(c), c) for c in self.truth.observed.categories()
        ]
        named = [item for item in named if item[0] >= 0]
        return min(named)[2] if named else description

    def threshold(self, description: str, category: str) -> float:
        """Oracle scores are similarity + satisfied constraints: demand every constraint the text states."""
        parsed = self.scorer.parse(description, category)
        return float(len(parsed.attributes) + bool(parsed.room) + len(parsed.relations))

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]:
        """Observed instances of the described category scoring at least the threshold, keyed by instance."""
        category = self.described_category(description)
        seen = self.truth.observed.of_category(category)
        scores = self.scorer.score_instances(description, category, [entry.object.id for entry in seen])
        threshold = self.threshold(description, category)
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
