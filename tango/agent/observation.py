"""What the agent perceives at one step, in the episode frame (see docs/architecture.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Observation:
    """One egocentric frame with its pose.

    `semantic` is the simulator's instance-id frame; only components named oracle may read it. `depth_clip`
    is the depth sensor's far limit: a reading equal to it only says the surface is at least that far (habitat
    clips farther depths to it), so it is no measurement of where the surface is (None: no clipping).
    """

    rgb: np.ndarray
    depth: np.ndarray
    camera_pose: np.ndarray
    hfov_deg: float
    agent_position: np.ndarray
    agent_yaw: float
    semantic: np.ndarray | None = None
    depth_clip: float | None = None

    @property
    def height(self) -> int:
        return int(self.depth.shape[0])

    @property
    def width(self) -> int:
        return int(self.depth.shape[1])

    def intrinsics(self) -> np.ndarray:
        """3x3 pinhole matrix from the horizontal field of view (square pixels, centred principal point)."""
        fx = (self.width / 2.0) / np.tan(np.deg2rad(self.hfov_deg) / 2.0)
        return np.array(
            [[fx, 0.0, (self.width - 1) / 2.0], [0.0, fx, (self.height - 1) / 2.0], [0.0, 0.0, 1.0]]
        )
