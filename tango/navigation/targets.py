"""3D target points from detections: a robust depth over the detection's mask or box, not a single pixel."""

from __future__ import annotations

import numpy as np

from tango.agent.observation import Observation
from tango.mapping.geometry import transform_points

BOX_CORE_FRACTION = 0.5


def detection_region(shape: tuple[int, ...], box: np.ndarray | None, mask: np.ndarray | None) -> np.ndarray:
    """The mask itself, or else the central half (in each dimension) of the xyxy box."""
    if mask is not None:
        return mask.astype(bool)
    if box is None:
        raise ValueError("a detection needs a box or a mask")
    h, w = shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    half_w, half_h = (x1 - x0) * BOX_CORE_FRACTION / 2, (y1 - y0) * BOX_CORE_FRACTION / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    region = np.zeros((h, w), bool)
    top, bottom = max(0, int(np.floor(cy - half_h))), min(h, int(np.ceil(cy + half_h)) + 1)
    left, right = max(0, int(np.floor(cx - half_w))), min(w, int(np.ceil(cx + half_w)) + 1)
    region[top:bottom, left:right] = True
    return region


def detection_point(
    obs: Observation, box: np.ndarray | None = None, mask: np.ndarray | None = None, max_depth: float = 10.0
) -> np.ndarray | None:
    """World point of a detection: the median valid depth over its region, on the ray through the region's
    centroid. None when no pixel of the region has a depth reading in (0, max_depth)."""
    region = detection_region(obs.depth.shape, box, mask)
    valid = region & (obs.depth > 0) & (obs.depth < max_depth)
    if not valid.any():
        return None
    depth = float(np.median(obs.depth[valid]))
    rows, cols = np.nonzero(region)
    k = obs.intrinsics()
    x = (cols.mean() - k[0, 2]) * depth / k[0, 0]
    y = -(rows.mean() - k[1, 2]) * depth / k[1, 1]
    return transform_points(obs.camera_pose, np.array([[x, y, -depth]]))[0]
