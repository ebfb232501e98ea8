"""VLFM's fog-of-war reveal (frontier_exploration's rule), computed in a window around the camera.

The field-of-view sector up to max depth is cut by "shadow" lines cast outward from the corners of the
non-navigable blobs inside it; the cell region that then contains (or lies within 3 px of) the camera is what
the frame reveals. Nothing is revealed when the sector holds no non-navigable cell, as in VLFM.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SHADOW_LENGTH = 1.05
"""Shadow lines run this many times the max depth outward from each obstacle corner."""
SHADOW_THICKNESS = 2
MAX_CAMERA_GAP_PX = 3.0
"""The revealed region must contain the camera or come within this many pixels of it."""


@dataclass
class RevealedArea:
    """Cells revealed by one frame: mask[r, c] covers map cell (row0 + r, col0 + c)."""

    row0: int
    col0: int
    mask: np.ndarray


def _wrap(angle: float) -> float:
    return (angle + np.pi) % (2 * np.pi) - np.pi


def _extreme_corners(contour: np.ndarray, camera_xy: np.ndarray, rotation_deg: float) -> np.ndarray:
    """The two contour points with the smallest and largest bearing from the camera, bearings measured after
    rotating by `rotation_deg` interpreted as radians (frontier_exploration's convention, kept for equality)."""
    offsets = contour.reshape(-1, 2) - camera_xy
    c, s = np.cos(-rotation_deg), np.sin(-rotation_deg)
    rotated = offsets @ np.array([[c, -s], [s, c]])
    bearings = np.arctan2(rotated[:, 1], rotated[:, 0])
    return contour.reshape(-1, 2)[[int(np.argmin(bearings)), int(np.argmax(bearings))]]


def _cut_by_shadows(
    visible: np.ndarray,
    origin: tuple[int, int],
    starts: np.ndarray,
    ends: np.ndarray,
    map_shape: tuple[int, ...],
) -> np.ndarray:
    """Draw the shadow lines (map (x, y) starts and ends) across `visible`, whose cell (0, 0) is map cell
    `origin` (row, col). The lines are drawn whole on a canvas that holds them (clipped only by the map edge,
    as on the full map), because OpenCV rasterises a line clipped by the image edge slightly differently."""
    r0, c0 = origin
    margin = 2 * SHADOW_THICKNESS
    xs, ys = np.concatenate((starts[:, 0], ends[:, 0])), np.concatenate((starts[:, 1], ends[:, 1]))
    top, left = max(0, min(r0, int(ys.min()) - margin)), max(0, min(c0, int(xs.min()) - margin))
    bottom = min(map_shape[0], max(r0 + visible.shape[0], int(ys.max()) + margin + 1))
    right = min(map_shape[1], max(c0 + visible.shape[1], int(xs.max()) + margin + 1))
    canvas = np.zeros((bottom - top, right - left), np.uint8)
    inner = (slice(r0 - top, r0 - top + visible.shape[0]), slice(c0 - left, c0 - left + visible.shape[1]))
    canvas[inner] = visible
    shadows = np.stack((starts, ends), axis=1).astype(np.int32) - np.array([left, top], np.int32)
    cv2.polylines(canvas, list(shadows), False, (0,), SHADOW_THICKNESS)
    return np.ascontiguousarray(canvas[inner])


def reveal_cone(
    navigable: np.ndarray, camera_px: tuple[int, int], yaw: float, hfov_deg: float, max_len_px: float
) -> RevealedArea | None:
    """Cells of the navigable map that the camera at map cell (row, col), heading `yaw` (0 toward +rows,
    positive toward -cols), reveals under VLFM's fog-of-war rule; None when nothing is revealed.

    Works in a window around the sector (shadow lines drawn whole), so the result equals the full-map rule. A
    camera outside the map reveals nothing.
    """
    size_r, size_c = navigable.shape
    row, col = camera_px
    if not (0 <= row < size_r and 0 <= col < size_c):
        return None
    radius = int(max_len_px) + 2 * SHADOW_THICKNESS
    r0, r1 = max(0, row - radius), min(size_r, row + radius + 1)
    c0, c1 = max(0, col - radius), min(size_c, col + radius + 1)
    nav = navigable[r0:r1, c0:c1].view(np.uint8)
    camera_xy = np.array([col - c0, row - r0])
    heading_deg = float(np.rad2deg(_wrap(yaw + np.pi / 2)))
    cone = np.zeros_like(nav)
    cv2.ellipse(
        cone,
        (int(camera_xy[0]), int(camera_xy[1])),
        (int(max_len_px), int(max_len_px)),
        0,
        heading_deg - hfov_deg / 2,
        heading_deg + hfov_deg / 2,
        (1,),
        -1,
    )
    blocked = cv2.bitwise_and(cone, 1 - nav)
    blobs, _ = cv2.findContours(blocked, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if not blobs:
        return None
    corners = np.concatenate(
        [
            _extreme_corners(blob, camera_xy, heading_deg)
            if cv2.isContourConvex(blob)
            else blob.reshape(-1, 2)
            for blob in blobs
        ]
    )
    starts = corners + np.array([c0, r0])
    bearings = np.arctan2(corners[:, 1] - camera_xy[1], corners[:, 0] - camera_xy[0])
    reach = max_len_px * SHADOW_LENGTH
    ends = np.stack(
        (starts[:, 0] + reach * np.cos(bearings), starts[:, 1] + reach * np.sin(bearings)), axis=1
    ).astype(np.int32)
    visible = _cut_by_shadows(cv2.bitwise_and(cone, nav), (r0, c0), starts, ends, navigable.shape)
    regions, _ = cv2.findContours(visible, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if not regions:
        return None
    point = (float(camera_xy[0]), float(camera_xy[1]))
    gaps = [abs(cv2.pointPolygonTest(region, point, True)) for region in regions]
    best = int(np.argmin(gaps))
    if gaps[best] > MAX_CAMERA_GAP_PX:
        return None
    mask = np.zeros_like(nav)
    cv2.drawContours(mask, regions, best, (1,), -1)
    return RevealedArea(r0, c0, mask)
