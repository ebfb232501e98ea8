"""The views the agent keeps for image goals: every few steps a frame with the world point at its centre."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import numpy as np

from tango.navigation.targets import detection_point
from tango.types.observation import Observation, RenderedOnRead


@dataclass
class Keyframe:
    """A kept view and the world point at its centre (None when out of depth range); an image the simulator
    deferred is drawn when `rgb` is first read (most runs never read the kept images)."""

    if TYPE_CHECKING:
        rgb: np.ndarray
    else:
        rgb: RenderedOnRead = RenderedOnRead()  # (a descriptor: no default, hence hidden from type checkers)
    point: np.ndarray | None


@dataclass
class KeyframeLog:
    """At most `max_keyframes` views spread over the episode: when full, every other one is dropped, and
    `generation` counts those thinnings (a matcher that walked the log restarts when it changes)."""

    max_keyframes: int
    max_depth: float
    views: list[Keyframe] = field(default_factory=list)
    generation: int = 0

    def add(self, obs: Observation) -> None:
        """Keep `obs` with the world point of the middle third of its frame."""
        if len(self.views) >= self.max_keyframes:
            self.views = self.views[::2]
            self.generation += 1
        point = detection_point(obs, central_box(obs), None, self.max_depth)
        self.views.append(Keyframe(cast(np.ndarray, obs.rgb_unrendered()), point))


def central_box(obs: Observation) -> np.ndarray:
    """The middle third of the frame, where a matched goal view puts its object."""
    h, w = obs.height, obs.width
    return np.array([w / 3.0, h / 3.0, 2.0 * w / 3.0, 2.0 * h / 3.0])
