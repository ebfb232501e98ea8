"""What the agent perceives at one step, in the episode frame (see docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

DeferredImage = Callable[[], np.ndarray]
"""Renders a frame's image when it is first read (the simulator skipped it while nothing asked for it)."""


class RenderedOnRead:
    """Dataclass field holding an image or a DeferredImage, which is called (once) when the field is read."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}"

    def __get__(self, obs: Any, owner: type | None = None) -> np.ndarray:
        if obs is None:
            raise AttributeError(self._slot)  # the field has no default
        value = obs.__dict__[self._slot]
        if callable(value):
            value = obs.__dict__[self._slot] = value()
        return np.asarray(value)

    def __set__(self, obs: Any, value: np.ndarray | DeferredImage) -> None:
        obs.__dict__[self._slot] = value


@dataclass
class Observation:
    """One egocentric frame with its pose.

    `rgb` may be given as a DeferredImage: it is rendered when something first reads it, to the same bits.
    `semantic` is the simulator's instance-id frame; only components named oracle may read it. `depth_clip`
    is the depth sensor's far limit: a reading equal to it only says the surface is at least that far (habitat
    clips farther depths to it), so it is no measurement of where the surface is (None: no clipping).
    """

    if TYPE_CHECKING:
        rgb: np.ndarray
    else:
        rgb: RenderedOnRead = RenderedOnRead()  # (a descriptor: no default, hence hidden from type checkers)
    depth: np.ndarray
    camera_pose: np.ndarray
    hfov_deg: float
    agent_position: np.ndarray
    agent_yaw: float
    semantic: np.ndarray | None = None
    depth_clip: float | None = None

    @classmethod
    def with_deferred_rgb(cls, rgb: DeferredImage, **fields: Any) -> Observation:
        """An observation whose image is rendered by `rgb` when first read."""
        return cls(cast(np.ndarray, rgb), **fields)

    def rgb_unrendered(self) -> np.ndarray | DeferredImage:
        """The image, or what renders it when it has not been read yet (for keeping it without drawing it)."""
        value: np.ndarray | DeferredImage = self.__dict__["_rgb"]
        return value

    @property
    def height(self) -> int:
        return int(self.depth.shape[0])

    @property
    def width(self) -> int:
        return int(self.depth.shape[1])

    def intrinsics(self) -> np.ndarray:
        """3x3 pinhole matrix from the horizontal field of view (square pixels, centred principal point).

        Read-only and shared by every frame of the same size and field of view (several components ask for it
        each step)."""
        key = (self.width, self.height, self.hfov_deg)
        matrix = _INTRINSICS.get(key)
        if matrix is None:
            fx = (self.width / 2.0) / np.tan(np.deg2rad(self.hfov_deg) / 2.0)
            matrix = np.array(
                [[fx, 0.0, (self.width - 1) / 2.0], [0.0, fx, (self.height - 1) / 2.0], [0.0, 0.0, 1.0]]
            )
            matrix.flags.writeable = False
            _INTRINSICS[key] = matrix
        return matrix


_INTRINSICS: dict[tuple[int, int, float], np.ndarray] = {}
"""Pinhole matrices by (width, height, hfov_deg): a run uses one or two cameras."""
