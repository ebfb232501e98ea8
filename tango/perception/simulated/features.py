"""What makes a visible object easy or hard to detect, measured from the frame the oracle already reads.

Apparent size (visible pixels rescaled to COCO's 640x480), visible fraction (visible pixels over the area of the
object's projected 3D box times a fill factor: occlusion and truncation at the frame's edge), distance from
the camera to the box centre, and the elevation of the ray to it. All vectorised over the objects in view;
nothing is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.perception.oracle.visible import VisibleObject
from tango.perception.simulated.params import COCO_FRAME_PIXELS
from tango.types.observation import Observation

NEAR_M = 0.05
"""Box corners closer to (or behind) the camera than this are projected as if at this depth."""

_CORNERS = np.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)], dtype=np.float64)


@dataclass
class ObjectFeatures:
    """Per-object features of the objects in one frame, in the order of `visible`."""

    pixels: np.ndarray
    side_px: np.ndarray
    visible_fraction: np.ndarray
    distance_m: np.ndarray
    elevation_deg: np.ndarray

    def __len__(self) -> int:
        return len(self.pixels)


def object_features(obs: Observation, visible: list[VisibleObject], fill: float) -> ObjectFeatures:
    """The features of `visible` in `obs` (camera pose: camera-to-world, OpenGL axes, looking along -z)."""
    n = len(visible)
    if n == 0:
        empty = np.zeros(0, dtype=np.float64)
        return ObjectFeatures(empty, empty, empty, empty, empty)
    pixels = np.array([v.pixels for v in visible], dtype=np.float64)
    side = np.sqrt(pixels * COCO_FRAME_PIXELS / float(obs.height * obs.width))
    low = np.array([v.object.bbox_min for v in visible], dtype=np.float64)
    high = np.array([v.object.bbox_max for v in visible], dtype=np.float64)
    corners = low[:, None, :] + _CORNERS[None, :, :] * (high - low)[:, None, :]  # (N, 8, 3)
    pose = np.asarray(obs.camera_pose, dtype=np.float64)
    world_to_camera = np.linalg.inv(pose)
    camera = corners @ world_to_camera[:3, :3].T + world_to_camera[:3, 3]
    depth = np.maximum(-camera[..., 2], NEAR_M)
    k = obs.intrinsics()
    u = k[0, 0] * camera[..., 0] / depth + k[0, 2]
    v = -k[1, 1] * camera[..., 1] / depth + k[1, 2]
    area = (u.max(axis=1) - u.min(axis=1)) * (v.max(axis=1) - v.min(axis=1))
    visible_fraction = np.clip(pixels / np.maximum(fill * area, 1.0), 0.0, 1.0)
    offset = (low + high) / 2.0 - pose[:3, 3]
    distance = np.linalg.norm(offset, axis=1)
    elevation = np.degrees(np.arctan2(offset[:, 1], np.linalg.norm(offset[:, [0, 2]], axis=1)))
    return ObjectFeatures(pixels, side, visible_fraction, distance, elevation)
