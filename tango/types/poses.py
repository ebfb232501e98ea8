"""Pose helpers in habitat's convention: y up, yaw 0 looks along -z, positive yaw turns left (about +y).

Quaternions are `[x, y, z, w]` as in habitat's episode files.
"""

from __future__ import annotations

import numpy as np


def yaw_rotation(yaw: float) -> np.ndarray:
    """3x3 rotation about +y by yaw radians."""
    c, s = np.cos(yaw), np.sin(yaw)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def pitch_rotation(pitch: float) -> np.ndarray:
    """3x3 rotation about +x by pitch radians (positive looks up)."""
    c, s = np.cos(pitch), np.sin(pitch)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def camera_pose(position: np.ndarray, yaw: float, pitch: float = 0.0, height: float = 0.0) -> np.ndarray:
    """4x4 world-from-camera for a camera `height` above `position`, turned by yaw, then tilted by pitch."""
    pose = np.eye(4)
    pose[:3, :3] = yaw_rotation(yaw) @ pitch_rotation(pitch)
    pose[:3, 3] = np.asarray(position, dtype=np.float64) + np.array([0.0, height, 0.0])
    return pose


def forward_vector(yaw: float) -> np.ndarray:
    """Unit heading in the xz plane for a yaw: (-sin yaw, 0, -cos yaw)."""
    return np.array([-np.sin(yaw), 0.0, -np.cos(yaw)])


def yaw_to_quaternion(yaw: float) -> np.ndarray:
    """Quaternion [x, y, z, w] of a rotation about +y."""
    return np.array([0.0, np.sin(yaw / 2.0), 0.0, np.cos(yaw / 2.0)])


def quaternion_to_matrix(quaternion: np.ndarray) -> np.ndarray:
    """3x3 rotation matrix of a unit quaternion [x, y, z, w]."""
    x, y, z, w = np.asarray(quaternion, dtype=np.float64) / np.linalg.norm(quaternion)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def quaternion_to_yaw(quaternion: np.ndarray) -> float:
    """Heading (rotation about +y) of a quaternion [x, y, z, w], from where it turns the -z axis."""
    forward = quaternion_to_matrix(quaternion) @ np.array([0.0, 0.0, -1.0])
    return float(np.arctan2(-forward[0], -forward[2]))
