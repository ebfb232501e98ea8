"""Value-map scorers `score(obs, prompts) -> (P,)` from CLIP image-text similarity (BLIP-2's is in blip2.py)."""

from __future__ import annotations

import numpy as np

from tango.perception.clip import ClipEmbedder
from tango.perception.config import ScorerConfig
from tango.perception.context import BuildContext
from tango.perception.registry import register
from tango.types.observation import Observation


class ClipScorer:
    """Cosine similarity between the whole frame and each prompt (open_clip)."""

    def __init__(self, clip: ClipEmbedder) -> None:
        self.clip = clip

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) similarities."""
        if not prompts:
            return np.zeros(0, dtype=np.float32)
        return self.clip.similarity([obs.rgb], list(prompts))[0].astype(np.float32)

    def image_embedding(self, obs: Observation) -> np.ndarray:
        """(D,) unit CLIP embedding of the frame (the one `score` compares; computed once per frame)."""
        return self.clip.images([obs.rgb])[0].cpu().numpy().astype(np.float32)

    def text_embedding(self, text: str) -> np.ndarray:
        """(D,) unit CLIP embedding of a text."""
        return self.clip.texts([text])[0].cpu().numpy().astype(np.float32)


@register("scorer", "clip")
def clip_scorer(config: ScorerConfig, ctx: BuildContext) -> ClipScorer:
    return ClipScorer(ctx.models.clip(config.clip))
