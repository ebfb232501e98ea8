"""ORACLE perception: detections from the simulator's instance-semantics frame and the scene annotation.

This reads ground truth (which pixels belong to which annotated object); results record `perception=oracle`.
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import DetectorConfig
from tango.perception.detections import Detections, normalise_label
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import VisibleObject, full_masks, visible_objects
from tango.perception.registry import register
from tango.perception.text_similarity import TextEmbedder
from tango.types.observation import Observation


class OracleDetector:
    """ORACLE detector: visible annotated objects whose category matches a query label (score 1.0).

    A label matches its exact category; with `label_similarity > 0` also the one annotated category nearest to
    it by MiniLM similarity, when that similarity reaches the threshold (synonyms such as sofa/couch, tv monitor/tv,
    while chair stays chair rather than also meaning armchair).
    """

    def __init__(
        self,
        scene: OracleScene,
        min_pixels: int,
        label_similarity: float = 0.0,
        text: TextEmbedder | None = None,
    ) -> None:
        if label_similarity > 0 and text is None:
            raise ValueError("oracle detector: label_similarity > 0 needs a text embedder")
        self.scene = scene
        self.min_pixels = min_pixels
        self.label_similarity = label_similarity
        self.text = text
        self._categories = sorted({normalise_label(o.category) for o in scene.objects.values()})
        self._nearest: dict[str, str | None] = {}

    def matches(self, label: str, category: str) -> bool:
        """Whether query `label` names annotated `category`."""
        if normalise_label(label) == normalise_label(category):
            return True
        if self.label_similarity <= 0 or self.text is None:
            return False
        return self.nearest_category(label) == normalise_label(category)

    def nearest_category(self, label: str) -> str | None:
        """The annotated category most similar to `label`, if it reaches label_similarity (cached per label)."""
        query = normalise_label(label)
        if query not in self._nearest:
            nearest = None
            if self.text is not None and self._categories:
                similarity = self.text.similarity([query], self._categories)[0]
                best = int(np.argmax(similarity))
                if similarity[best] >= self.label_similarity:
                    nearest = self._categories[best]
            self._nearest[query] = nearest
        return self._nearest[query]

    def detect_visible(self, obs: Observation) -> Detections:
        """Every visible annotated object, labelled with its category."""
        return self._record(obs, visible_objects(obs, self.scene, self.min_pixels), None)

    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """Visible objects matching any of `labels`, labelled with the query label they match."""
        return self._record(obs, visible_objects(obs, self.scene, self.min_pixels), labels)

    def _record(self, obs: Observation, visible: list[VisibleObject], labels: list[str] | None) -> Detections:
        kept: list[tuple[VisibleObject, str]] = []
        for item in visible:
            if labels is None:
                kept.append((item, item.object.category))
                continue
            label = next((q for q in labels if self.matches(q, item.object.category)), None)
            if label is not None:
                kept.append((item, label))
        if not kept:
            return Detections.empty()
        return Detections(
            boxes=np.stack([v.box for v, _ in kept]),
            scores=np.ones(len(kept)),
            labels=[label for _, label in kept],
            points=np.stack([v.point for v, _ in kept]),
            instance_ids=np.array([v.object.id for v, _ in kept]),
            masks=full_masks([v for v, _ in kept], (obs.height, obs.width)),
        )


@register("detector", "oracle", oracle=True)
def oracle_detector(config: DetectorConfig, ctx: OracleContext) -> OracleDetector:
    """The oracle detector over the episode's ground truth (label synonyms through MiniLM when enabled)."""
    text = ctx.models.text("") if config.label_similarity > 0 else None
    return OracleDetector(ctx.ground_truth.scene, config.min_pixels, config.label_similarity, text)
