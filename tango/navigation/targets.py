"""3D target points from detections: a robust depth over the detection's mask or box, not a single pixel."""

from __future__ import annotations

import numpy as np

from tango.mapping.geometry import transform_points
from tango.types.observation import Observation

BOX_CORE_FRACTION = 0.5


def detection_region(shape: tuple[int, ...], box: np.ndarray | None, mask: np.ndarray | None) -> np.ndarray:
    """The mask itself, or else the central half (in each dimension) of the xyxy box."""
    if mask is not None:
        return mask.astype(bool)
    if box is None:
        raise ValueError("a detection needs a box or a mask")
    region = np.zeros(shape[:2], bool)
    region[box_core(shape, box)] = True
    return region


def box_core(shape: tuple[int, ...], box: np.ndarray) -> tuple[slice, slice]:
    """The central half (in each dimension) of the xyxy box, as (rows, cols) slices of an image of `shape`."""
    h, w = shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    half_w, half_h = (x1 - x0) * BOX_CORE_FRACTION / 2, (y1 - y0) * BOX_CORE_FRACTION / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    top, bottom = max(0, int(np.floor(cy - half_h))), min(h, int(np.ceil(cy + half_h)) + 1)
    left, right = max(0, int(np.floor(cx - half_w))), min(w, int(np.ceil(cx + half_w)) + 1)
    return slice(top, bottom), slice(left, right)


def detection_point(
    obs: Observation, box: np.ndarray | None = None, mask: np.ndarray | None = None, max_depth: float = 10.0
) -> np.ndarray | None:
    """World point of a detection: the median valid depth over its region, on the ray through the region's
    centroid. None when no pixel of the region has a depth reading in (0, max_depth).

    A box's region is a rectangle: only its window is read, and its centroid is the window's centre (the mean
    of whole rows and columns is an exact half-integer, as np.mean computes it)."""
    if mask is None and box is not None:
        rows_slice, cols_slice = box_core(obs.depth.shape, box)
        window = obs.depth[rows_slice, cols_slice]
        valid = (window > 0) & (window < max_depth)
        if not valid.any():
            return None
        depth = float(np.median(window[valid]))
        top, bottom, _ = rows_slice.indices(obs.depth.shape[0])  # (a negative end counts from the far edge)
        left, right, _ = cols_slice.indices(obs.depth.shape[1])
        row, col = (top + bottom - 1) / 2.0, (left + right - 1) / 2.0
    else:
        region = detection_region(obs.depth.shape, box, mask)
        valid = region & (obs.depth > 0) & (obs.depth < max_depth)
        if not valid.any():
            return None
        depth = float(np.median(obs.depth[valid]))
        rows, cols = np.nonzero(region)
        row, col = rows.mean(), cols.mean()
    k = obs.intrinsics()
    x = (col - k[0, 2]) * depth / k[0, 0]
    y = -(row - k[1, 2]) * depth / k[1, 1]
    return transform_points(obs.camera_pose, np.array([[x, y, -depth]]))[0]
