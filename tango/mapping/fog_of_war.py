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


def reveal_cone(
    navigable: np.ndarray, camera_px: tuple[int, int], yaw: float, hfov_deg: float, max_len_px: float
) -> RevealedArea | None:
    """Cells of the navigable map that the camera at map cell (row, col), heading `yaw` (0 toward +rows,
    positive toward -cols), reveals under VLFM's fog-of-war rule; None when nothing is revealed.

    Works in a window that holds the sector and every shadow line, so the result equals the full-map rule.
    """
    size_r, size_c = navigable.shape
    row, col = camera_px
    radius = int(max_len_px * (1 + SHADOW_LENGTH)) + 2 * SHADOW_THICKNESS
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
    shadows = np.stack((starts, ends), axis=1).astype(np.int32) - np.array([c0, r0], np.int32)
    visible = cv2.bitwise_and(cone, nav)
    cv2.polylines(visible, list(shadows), False, (0,), SHADOW_THICKNESS)
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
