"""Synthetic poses and depth frames with known geometry for the mapping tests."""

from __future__ import annotations

import numpy as np

from tango.types.observation import Observation


def yaw_pose(x: float, y: float, z: float, yaw: float) -> np.ndarray:
    """World-from-camera pose at (x, y, z) turned yaw radians left of -z (no pitch)."""
    c, s = np.cos(yaw), np.sin(yaw)
    pose = np.eye(4)
    pose[:3, :3] = [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
    pose[:3, 3] = [x, y, z]
    return pose


def flat_wall_observation(
    distance: float,
    size: int = 64,
    hfov: float = 90.0,
    camera_height: float = 0.88,
    x: float = 0.0,
    z: float = 0.0,
    yaw: float = 0.0,
) -> Observation:
    """Camera at (x, camera_height, z) facing a wall `distance` metres ahead that fills the whole image."""
    depth = np.full((size, size), distance, np.float32)
    return Observation(
        rgb=np.zeros((size, size, 3), np.uint8),
        depth=depth,
        camera_pose=yaw_pose(x, camera_height, z, yaw),
        hfov_deg=hfov,
        agent_position=np.array([x, 0.0, z]),
        agent_yaw=yaw,
    )
