"""Remove look-alike detections: CLIP classifies each crop as the target vs similar classes vs "other"."""

from __future__ import annotations

import numpy as np

from tango.perception.clip import ClipEmbedder, crop
from tango.perception.detections import Detections
from tango.types.observation import Observation

OTHER = "other"


class ClipFilter:
    """Keep a detection when its crop's most likely class is its own label with probability >= threshold."""

    def __init__(
        self, clip: ClipEmbedder, similar_classes: dict[str, list[str]], threshold: float, crop_padding: float
    ) -> None:
        self.clip = clip
        self.similar_classes = similar_classes
        self.threshold = threshold
        self.crop_padding = crop_padding

    def classes_for(self, label: str) -> list[str]:
        """Target first, then its configured look-alikes, then "other"."""
        similar = [c for c in self.similar_classes.get(label, []) if c not in (label, OTHER)]
        return [label, *similar, OTHER]

    def prompts(self, classes: list[str]) -> list[str]:
        """The CLIP prompt of each class."""
        return [f"a photo of a {name}" if name != OTHER else "a photo of something else" for name in classes]

    def keep_mask(self, obs: Observation, detections: Detections) -> np.ndarray:
        """(N,) bool: which detections pass the classifier."""
        keep = np.zeros(len(detections), dtype=bool)
        for label in set(detections.labels):
            index = [i for i, name in enumerate(detections.labels) if name == label]
            crops = [crop(obs.rgb, detections.boxes[i], self.crop_padding) for i in index]
            probabilities = self.clip.probabilities(crops, self.prompts(self.classes_for(label)))
            passed = (probabilities.argmax(axis=1) == 0) & (probabilities[:, 0] >= self.threshold)
            keep[index] = passed
        return keep

    def __call__(self, obs: Observation, detections: Detections) -> Detections:
        """The detections that pass."""
        if not len(detections):
            return detections
        return detections.select(self.keep_mask(obs, detections))
