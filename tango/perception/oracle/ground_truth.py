"""ORACLE: the one handle on ground truth. The runner builds a `GroundTruth` for an episode only when a
configured perception component is a registered oracle; only oracle factories receive it (`OracleContext`).

It holds the scene annotation, reads the semantic frames of observations and goal pictures (the simulator
renders them only when a ground-truth handle exists), and keeps the annotated objects the agent has seen so
far, recorded from every frame it receives, so oracle components answer from what was observed only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tango.perception.context import BuildContext
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.scene import OracleScene, load_oracle_scene
from tango.perception.oracle.visible import VisibleObject, visible_objects
from tango.types.observation import Observation


class GroundTruth:
    """One episode's ground truth: the scene annotation, semantic frames, and the objects observed so far."""

    def __init__(self, scene: OracleScene, min_pixels: int) -> None:
        self.scene = scene
        self.min_pixels = min_pixels
        self.observed = ObservedObjects()

    @classmethod
    def load(cls, annotations: str | Path, min_pixels: int) -> GroundTruth:
        """From `{scene_id}.annotations.json` (errors name the file)."""
        return cls(load_oracle_scene(annotations), min_pixels)

    def visible(self, obs: Observation, min_pixels: int | None = None) -> list[VisibleObject]:
        """Annotated objects in `obs`'s semantic frame with at least `min_pixels` pixels, largest first."""
        return visible_objects(obs, self.scene, self.min_pixels if min_pixels is None else min_pixels)

    def observe(self, obs: Observation) -> None:
        """Record the objects visible in a frame the agent received."""
        self.observed.record(self.visible(obs))

    @staticmethod
    def semantic(frame: np.ndarray | None, what: str) -> np.ndarray:
        """A semantic frame that must exist (ValueError naming `what` when the sensor was off)."""
        if frame is None:
            raise ValueError(f"{what} has no semantic frame: oracle components need the semantic sensor")
        return frame


@dataclass
class OracleContext(BuildContext):
    """The build context of oracle factories: the shared one plus the episode's ground truth."""

    ground_truth: GroundTruth
