"""Depth back-projection and world <-> map-pixel transforms (habitat frame: y up, camera looks along -z)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def effective_depth(depth: np.ndarray, min_depth: float, max_depth: float) -> np.ndarray:
    """Depth in metres clipped to [min_depth, max_depth]; 0 (nothing within the clip range) reads as max_depth."""
    return np.where(depth <= 0.0, max_depth, np.clip(depth, min_depth, max_depth)).astype(np.float32)


def column_reach(depth: np.ndarray, min_depth: float, max_depth: float) -> np.ndarray:
    """`effective_depth(depth, min_depth, max_depth).max(axis=0)` to the bit, without the full-frame copy:
    clipping is monotone, so a column's largest clipped reading is its largest reading clipped, or max_depth
    when the column holds a non-positive reading (NaN wins either way, as in np.max)."""
    tallest = depth.max(axis=0)
    reach = np.clip(tallest, min_depth, max_depth).astype(np.float32)
    empty = (depth <= 0.0).any(axis=0) & ~np.isnan(tallest)
    reach[empty] = np.float32(max_depth)
    return reach


def depth_to_camera_points(
    depth: np.ndarray, intrinsics: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """Back-project depth pixels to (N, 3) points in the OpenGL camera frame (x right, y up, looking along -z).

    Depth is the distance along the optical axis; `mask` selects the pixels (all when None).
    """
    if mask is None:
        mask = np.ones(depth.shape, dtype=bool)
    rows, cols = np.nonzero(mask)
    z = depth[rows, cols].astype(np.float64)
    fx, fy, cx, cy = intrinsics[0, 0], intrinsics[1, 1], intrinsics[0, 2], intrinsics[1, 2]
    x = (cols - cx) * z / fx
    y = -(rows - cy) * z / fy
    return np.stack((x, y, -z), axis=1)


class CameraRays:
    """Per-pixel camera-frame rays (x, y, -1), so that ray * depth is the point; cached per image size and
    intrinsics, float32, flattened row-major to (H * W, 3)."""

    def __init__(self) -> None:
        self._key: tuple[tuple[int, ...], bytes] | None = None
        self._rays = np.zeros((0, 3), np.float32)

    def get(self, shape: tuple[int, ...], intrinsics: np.ndarray) -> np.ndarray:
        """The rays for an image of this shape and these intrinsics."""
        key = (tuple(shape), np.asarray(intrinsics, np.float64).tobytes())
        if key != self._key:
            rows, cols = np.indices(shape[:2]).reshape(2, -1)
            fx, fy, cx, cy = intrinsics[0, 0], intrinsics[1, 1], intrinsics[0, 2], intrinsics[1, 2]
            x, y = (cols - cx) / fx, -(rows - cy) / fy
            self._rays = np.stack((x, y, -np.ones_like(x)), axis=1).astype(np.float32)
            self._key = key
        return self._rays


def transform_points(pose: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 4x4 rigid transform to (N, 3) points."""
    return points @ pose[:3, :3].T + pose[:3, 3]


def depth_to_world_points(
    depth: np.ndarray, intrinsics: np.ndarray, camera_pose: np.ndarray, max_depth: float
) -> np.ndarray:
    """World points of the pixels with a valid depth reading (0 < depth < max_depth)."""
    mask = (depth > 0.0) & (depth < max_depth)
    return transform_points(camera_pose, depth_to_camera_points(depth, intrinsics, mask))


def camera_yaw(camera_pose: np.ndarray) -> float:
    """Heading of the camera's optical axis about +y; 0 faces -z, positive turns left (habitat's turn_left)."""
    return float(np.arctan2(camera_pose[0, 2], camera_pose[2, 2]))


@dataclass(frozen=True)
class MapGrid:
    """A square top-down grid centred on the episode origin.

    Pixel (row, col): col = c + round(x * ppm), row = c - round(z * ppm), with c = size // 2, so rows grow
    toward -z (the agent's initial forward direction) and columns toward +x; this is VLFM's layout.
    """

    size: int = 1000
    pixels_per_meter: int = 20

    @property
    def origin(self) -> int:
        return self.size // 2

    def world_to_pixel(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points (or (N, 2) as x, z) to (N, 2) int (row, col); may fall outside the grid."""
        pts = np.atleast_2d(np.asarray(points, dtype=np.float64))
        x, z = (pts[:, 0], pts[:, 2]) if pts.shape[1] == 3 else (pts[:, 0], pts[:, 1])
        rows = self.origin - np.rint(z * self.pixels_per_meter)
        cols = self.origin + np.rint(x * self.pixels_per_meter)
        return np.stack((rows, cols), axis=1).astype(np.int64)

    def world_to_cells(self, x: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`world_to_pixel` of the points with coordinates x, z (1-D arrays) as separate row and column arrays
        (the same arithmetic, without stacking the points and the pixels)."""
        rows = np.array(z, np.float64)
        rows *= self.pixels_per_meter
        np.rint(rows, out=rows)
        np.subtract(self.origin, rows, out=rows)
        cols = np.array(x, np.float64)
        cols *= self.pixels_per_meter
        np.rint(cols, out=cols)
        cols += self.origin
        return rows.astype(np.int64), cols.astype(np.int64)

    def pixel_to_world(self, pixels: np.ndarray, y: float = 0.0) -> np.ndarray:
        """(N, 2) (row, col), possibly fractional, to (N, 3) world points at height y."""
        px = np.atleast_2d(np.asarray(pixels, dtype=np.float64))
        x = (px[:, 1] - self.origin) / self.pixels_per_meter
        z = (self.origin - px[:, 0]) / self.pixels_per_meter
        return np.stack((x, np.full_like(x, y), z), axis=1)

    def in_bounds(self, pixels: np.ndarray) -> np.ndarray:
        """Boolean mask of the (N, 2) pixels that lie inside the grid."""
        px = np.atleast_2d(pixels)
        return (px[:, 0] >= 0) & (px[:, 0] < self.size) & (px[:, 1] >= 0) & (px[:, 1] < self.size)
