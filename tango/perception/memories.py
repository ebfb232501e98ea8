"""Memories of real perception: `frame_features` (TANGO's memory: the value scorer's embedding of each frame over
the map cells it saw; `place(target)` is the best-matching cell from a cosine threshold, computed once per
target) and `none` (nothing beyond the agent's own detections)."""

from __future__ import annotations

import numpy as np

from tango.mapping.feature_memory import FeatureMemory
from tango.perception.config import MemoryConfig
from tango.perception.context import BuildContext
from tango.perception.detections import normalise_label
from tango.perception.interfaces import MapView, Recollection, ValueScorer
from tango.perception.registry import register
from tango.types.observation import Observation


class FrameFeatureMemory:
    """The paper's feature memory: every map cell holds the value scorer's image embedding of the latest frame
    that saw it (a per-pixel feature map, stored compactly); `place(target)` compares the target's text
    embedding with every cell by cosine similarity and returns the middle of the best frame's area when the
    best score reaches `threshold`. The comparison runs once per target: asking again for the same target
    gives the same place until another target is asked for (TANGO computes it when a new goal arrives)."""

    def __init__(self, scorer: ValueScorer, threshold: float) -> None:
        self.scorer = scorer
        self.threshold = threshold
        self.store: FeatureMemory | None = None
        self._floor_y = 0.0
        self._asked: tuple[str, Recollection | None] | None = None
        self.comparisons = 0

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Store the frame's embedding over its field-of-view patch of the map."""
        embedding = self.scorer.image_embedding(obs)
        if self.store is None:
            self.store = FeatureMemory(maps.grid, int(embedding.shape[-1]))
        self.store.add(embedding, maps.fov_patch(obs))
        self._floor_y = float(obs.agent_position[1])

    def place(self, target: str) -> Recollection | None:
        if self._asked is None or self._asked[0] != target:
            self._asked = (target, self._best_match(target))
        return self._asked[1]

    def recall(self, target: str) -> list[Recollection]:
        """Nothing: a remembered view is a place to look, not an object (explore_scene() goes there)."""
        return []

    def contents(self) -> list[Recollection]:
        """Nothing: frame features name no object."""
        return []

    def _best_match(self, target: str) -> Recollection | None:
        if self.store is None:
            return None
        self.comparisons += 1
        query = self.scorer.text_embedding(target)
        found = self.store.recall(query, self.threshold, self._floor_y)
        if found is None:
            return None
        label = normalise_label(target)
        point = self._area_centre(found.frame_index)
        return Recollection(label, point, found.score, f"{label}@memory")

    def _area_centre(self, frame_index: int) -> np.ndarray:
        """The middle of the map cells a remembered frame still owns: one embedding per frame means every one of
        its cells scores the same, so its area (not its first cell) is where the recalled view looked."""
        assert self.store is not None
        rows, cols = np.nonzero(self.store.cell_frame == frame_index)
        centre = np.array([[rows.mean(), cols.mean()]])
        return self.store.grid.pixel_to_world(centre, self._floor_y)[0]


class NoMemory:
    """Remembers nothing beyond the agent's own detections."""

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Nothing to store."""

    def recall(self, target: str) -> list[Recollection]:
        return []

    def contents(self) -> list[Recollection]:
        return []

    def place(self, target: str) -> Recollection | None:
        return None


@register("memory", "frame_features")
def frame_feature_memory(config: MemoryConfig, ctx: BuildContext) -> FrameFeatureMemory:
    """Fed by the bundle's value scorer (its embeddings, whatever model it runs; an oracle scorer is listed)."""
    return FrameFeatureMemory(ctx.value_scorer(), config.threshold)


@register("memory", "none")
def no_memory(config: MemoryConfig, ctx: BuildContext) -> NoMemory:
    return NoMemory()
