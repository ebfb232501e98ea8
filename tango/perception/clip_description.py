"""Description goals with CLIP: detections of the described object scored by crop-text similarity."""

from __future__ import annotations

import numpy as np

from tango.perception.clip import ClipEmbedder, crop
from tango.perception.config import DescriptionConfig
from tango.perception.context import BuildContext
from tango.perception.detections import Detections
from tango.perception.interfaces import DetectFn, Recollection
from tango.perception.registry import register
from tango.types.observation import Observation


class ClipDescriptionMatcher:
    """Detect the description's text in the frame, keep the detections whose crop matches it from
    `min_similarity` (CLIP cosine similarity)."""

    def __init__(self, clip: ClipEmbedder, min_similarity: float, crop_padding: float = 0.1) -> None:
        self.clip = clip
        self.min_similarity = min_similarity
        self.crop_padding = crop_padding

    def score(self, obs: Observation, description: str, detections: Detections) -> np.ndarray:
        """(N,) cosine similarities between each detection's crop and the description."""
        if not len(detections):
            return np.zeros(0)
        crops = [crop(obs.rgb, box, self.crop_padding) for box in detections.boxes]
        return self.clip.similarity(crops, [description])[:, 0].astype(np.float64)

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]:
        """The detections in the current frame that fit the description."""
        detections = detect(description)
        scores = self.score(obs, description, detections)
        return [
            Recollection(
                description, detections.points[i], float(scores[i]), _instance_key(description, detections, i)
            )
            for i in np.flatnonzero(scores >= self.min_similarity)
        ]


def _instance_key(label: str, detections: Detections, index: int) -> str | None:
    instance = int(detections.instance_ids[index])
    return f"{label}#{instance}" if instance >= 0 else None


@register("description", "clip")
def clip_description_matcher(config: DescriptionConfig, ctx: BuildContext) -> ClipDescriptionMatcher:
    return ClipDescriptionMatcher(ctx.models.clip(config.clip), config.min_similarity, config.crop_padding)
