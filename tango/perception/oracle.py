"""ORACLE perception: detections from the simulator's instance-semantics frame and the scene annotation.

This reads ground truth (which pixels belong to which annotated object); results record `perception=oracle`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from tango.agent.observation import Observation
from tango.perception.detections import Detections, normalise_label
from tango.perception.geometry import region_point
from tango.perception.oracle_scene import OracleScene
from tango.perception.text_similarity import TextEmbedder
from tango.sim.scene import SceneObject


@dataclass
class VisibleObject:
    """An annotated object with at least the minimum pixel area in the frame."""

    object: SceneObject
    pixels: int
    box: np.ndarray
    window: tuple[slice, slice]
    local_mask: np.ndarray
    point: np.ndarray

    def paint(self, canvas: np.ndarray) -> np.ndarray:
        """Write this object's mask into a full-frame boolean `canvas` (returned)."""
        canvas[self.window] = self.local_mask
        return canvas


def visible_objects(obs: Observation, scene: OracleScene, min_pixels: int) -> list[VisibleObject]:
    """Annotated objects visible in `obs.semantic` with >= `min_pixels` pixels, largest first."""
    if obs.semantic is None:
        raise ValueError("oracle perception needs the semantic sensor (Observation.semantic is None)")
    semantic = np.asarray(obs.semantic)
    try:
        counts = np.bincount(semantic.ravel())
    except ValueError as error:
        raise ValueError("oracle perception: the semantic frame has negative instance ids") from error
    ids = [int(i) for i in np.nonzero(counts >= max(min_pixels, 1))[0] if i > 0 and int(i) in scene.objects]
    if not ids:
        return []
    slices = ndimage.find_objects(semantic, max_label=max(ids))
    found = []
    for object_id in ids:
        rows_slice, cols_slice = slices[object_id - 1]
        local = semantic[rows_slice, cols_slice] == object_id
        rows, cols = np.nonzero(local)
        rows += rows_slice.start
        cols += cols_slice.start
        box = np.array(
            [cols_slice.start, rows_slice.start, cols_slice.stop, rows_slice.stop], dtype=np.float32
        )
        point = region_point(obs, rows, cols)
        window = (rows_slice, cols_slice)
        found.append(
            VisibleObject(scene.objects[object_id], int(counts[object_id]), box, window, local, point)
        )
    found.sort(key=lambda v: -v.pixels)
    return found


def full_masks(visible: list[VisibleObject], shape: tuple[int, int]) -> np.ndarray:
    """(N, H, W) boolean masks of `visible`, written into one preallocated array."""
    masks = np.zeros((len(visible), *shape), dtype=bool)
    for canvas, item in zip(masks, visible):
        item.paint(canvas)
    return masks


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
