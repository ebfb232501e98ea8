"""Value-map scorers `score(obs, prompts) -> (P,)`: CLIP image-text, and the ORACLE text scorer over labels in view."""

from __future__ import annotations

import numpy as np

from tango.agent.observation import Observation
from tango.perception.clip import ClipEmbedder
from tango.perception.oracle import visible_objects
from tango.perception.oracle_scene import OracleScene
from tango.perception.text_similarity import TextEmbedder


class ClipScorer:
    """Cosine similarity between the whole frame and each prompt (open_clip)."""

    def __init__(self, clip: ClipEmbedder) -> None:
        self.clip = clip

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) similarities."""
        if not prompts:
            return np.zeros(0, dtype=np.float32)
        return self.clip.similarity([obs.rgb], list(prompts))[0].astype(np.float32)


class OracleTextScorer:
    """ORACLE scorer: max MiniLM similarity between each prompt and the categories of annotated objects in view.

    A frame with no annotated object in view scores 0 for every prompt.
    """

    def __init__(self, scene: OracleScene, text: TextEmbedder, min_pixels: int) -> None:
        self.scene = scene
        self.text = text
        self.min_pixels = min_pixels

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) similarities in [0, 1]."""
        categories = sorted({v.object.category for v in visible_objects(obs, self.scene, self.min_pixels)})
        if not prompts or not categories:
            return np.zeros(len(prompts), dtype=np.float32)
        similarity = self.text.similarity(list(prompts), categories)
        return np.clip(similarity.max(axis=1), 0.0, 1.0).astype(np.float32)
