"""Memories of real perception: `frame_features` (each frame's CLIP embedding over the map cells it saw, so a
text recalls where a matching view looked) and `none` (recall() returns only the agent's own detections)."""

from __future__ import annotations

import numpy as np

from tango.agent.observation import Observation
from tango.mapping.feature_memory import FeatureMemory
from tango.perception.clip import ClipEmbedder
from tango.perception.config import MemoryConfig
from tango.perception.context import BuildContext
from tango.perception.detections import normalise_label
from tango.perception.interfaces import MapView, Recollection
from tango.perception.registry import register


class FrameFeatureMemory:
    """One CLIP image embedding per frame, stored for the map cells the frame saw (compact feature memory);
    `recall(text)` is the middle of the area of the best-matching frame, from `threshold` cosine similarity."""

    def __init__(self, clip: ClipEmbedder, threshold: float) -> None:
        self.clip = clip
        self.threshold = threshold
        self.store: FeatureMemory | None = None
        self._last: Observation | None = None

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Store the frame's embedding over its field-of-view patch of the map."""
        embedding = self.clip.images([obs.rgb])[0].cpu().numpy()
        if self.store is None:
            self.store = FeatureMemory(maps.grid, int(embedding.shape[-1]))
        self.store.add(embedding, maps.fov_patch(obs))
        self._last = obs

    def recall(self, target: str) -> list[Recollection]:
        if self.store is None or self._last is None:
            return []
        query = self.clip.texts([target])[0].cpu().numpy()
        floor_y = float(self._last.agent_position[1])
        found = self.store.recall(query, self.threshold, floor_y)
        if found is None:
            return []
        label = normalise_label(target)
        return [
            Recollection(label, self._area_centre(found.frame_index, floor_y), found.score, f"{label}@memory")
        ]

    def contents(self) -> list[Recollection]:
        """Nothing: frame features name no object until a text is recalled."""
        return []

    def _area_centre(self, frame_index: int, floor_y: float) -> np.ndarray:
        """The middle of the map cells a remembered frame still owns: one embedding per frame means every one of
        its cells scores the same, so its area (not its first cell) is where the recalled view looked."""
        assert self.store is not None
        rows, cols = np.nonzero(self.store.cell_frame == frame_index)
        centre = np.array([[rows.mean(), cols.mean()]])
        return self.store.grid.pixel_to_world(centre, floor_y)[0]


class NoMemory:
    """Remembers nothing beyond the agent's own detections."""

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Nothing to store."""

    def recall(self, target: str) -> list[Recollection]:
        return []

    def contents(self) -> list[Recollection]:
        return []


@register("memory", "frame_features")
def frame_feature_memory(config: MemoryConfig, ctx: BuildContext) -> FrameFeatureMemory:
    return FrameFeatureMemory(ctx.models.clip(config.clip), config.threshold)


@register("memory", "none")
def no_memory(config: MemoryConfig, ctx: BuildContext) -> NoMemory:
    return NoMemory()
