"""ORACLE value scorer and embedder: MiniLM similarity between each prompt and the categories of the annotated
objects in view; frame embeddings from those categories for the feature memory."""

from __future__ import annotations

import numpy as np

from tango.perception.config import ScorerConfig
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.perception.text_similarity import MiniLMQuerySide, TextEmbedder
from tango.types.observation import Observation


class OracleTextScorer(MiniLMQuerySide):
    """ORACLE scorer: max MiniLM similarity between each prompt and the categories of annotated objects in view.

    A frame with no annotated object in view scores 0 for every prompt.
    """

    def __init__(self, truth: GroundTruth, text: TextEmbedder, min_pixels: int) -> None:
        self.truth = truth
        self.text = text
        self.min_pixels = min_pixels

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) similarities in [0, 1]."""
        categories = sorted({v.object.category for v in self.truth.visible(obs, self.min_pixels)})
        if not prompts or not categories:
            return np.zeros(len(prompts), dtype=np.float32)
        similarity = self.text.similarity(list(prompts), categories)
        return np.clip(similarity.max(axis=1), 0.0, 1.0).astype(np.float32)

    def image_embedding(self, obs: Observation) -> np.ndarray:
        """ORACLE embedder: the normalised sum of the MiniLM embeddings of the annotated categories in view (a
        zero vector when none is), so a frame is as similar to a target as the categories it shows."""
        categories = sorted({v.object.category for v in self.truth.visible(obs, self.min_pixels)})
        if not categories:
            return np.zeros(self.dim, dtype=np.float32)
        total = self.text.embed(categories).sum(axis=0)
        return (total / np.linalg.norm(total)).astype(np.float32)


@register("scorer", "text_oracle", oracle=True)
def oracle_text_scorer(config: ScorerConfig, ctx: OracleContext) -> OracleTextScorer:
    return OracleTextScorer(ctx.ground_truth, ctx.models.text(config.text_model), config.min_pixels)
