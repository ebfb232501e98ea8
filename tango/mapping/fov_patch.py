"""The part of the map one frame sees, with VLFM's per-pixel confidence (cos^2 of the off-axis angle)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tango.mapping.geometry import camera_yaw

MIN_CONFIDENCE = 0.25
WARP_MARGIN_PX = 3
"""How far past the rotated corners of the cone's box a warped cell can still be set: bilinear reads one pixel
beyond its sample point, and OpenCV places sample points to 1/32 pixel."""


@dataclass
class FovPatch:
    """Confidence of the current frame over map cells [row0:row0+h, col0:col0+w] (0 where unseen), float32."""

    row0: int
    col0: int
    confidence: np.ndarray

    def clipped(self, size: int) -> FovPatch:
        """The part of the patch inside a size x size map."""
        h, w = self.confidence.shape
        top, left = max(0, self.row0), max(0, self.col0)
        bottom, right = min(size, self.row0 + h), min(size, self.col0 + w)
        conf = self.confidence[top - self.row0 : bottom - self.row0, left - self.col0 : right - self.col0]
        return FovPatch(top, left, conf)


def confidence_cone(hfov_rad: float, radius_px: int) -> np.ndarray:
    """Square (2r+1) image of the FOV cone pointing toward +rows, each cell weighted by VLFM's confidence:
    cos^2 of its off-axis angle scaled so the FOV edge maps to pi/2, remapped to [0.25, 1]; 0 outside the cone.
    """
    side = 2 * radius_px + 1
    half_deg = float(np.rad2deg(hfov_rad) / 2.0)
    cone = cv2.ellipse(
        np.zeros((side, side)),
        (radius_px, radius_px),
        (radius_px, radius_px),
        0,
        90 - half_deg,
        90 + half_deg,
        (1,),
        -1,
    )
    along = np.abs(np.arange(side) - radius_px)[:, None].astype(np.float64)
    across = np.abs(np.arange(side) - radius_px)[None, :].astype(np.float64)
    angle = np.arctan2(np.broadcast_to(across, (side, side)), np.broadcast_to(along, (side, side)))
    scaled = angle * (np.pi / 2) / (hfov_rad / 2)
    confidence = (np.cos(scaled) ** 2 * (1.0 - MIN_CONFIDENCE) + MIN_CONFIDENCE).astype(np.float32)
    return confidence * cone


class FovProjector:
    """Turns a depth frame and camera pose into the FovPatch the frame sees (occluded beyond its depth)."""

    def __init__(self, pixels_per_meter: int, map_size: int, min_depth: float, max_depth: float) -> None:
        self.pixels_per_meter = pixels_per_meter
        self.map_size = map_size
        self.min_depth = min_depth
        self.max_depth = max_depth
        self._cones: dict[float, np.ndarray] = {}

    def _cone(self, hfov_rad: float) -> np.ndarray:
        if hfov_rad not in self._cones:
            self._cones[hfov_rad] = confidence_cone(hfov_rad, int(self.max_depth * self.pixels_per_meter))
        return self._cones[hfov_rad].copy()

    def project(self, depth_m: np.ndarray, camera_pose: np.ndarray, hfov_deg: float) -> FovPatch:
        """Visible cone cut at each image column's farthest depth, rotated to the camera yaw, placed on the map.

        `depth_m` is in metres, already clipped to [min_depth, max_depth] (see geometry.effective_depth).
        """
        return self.project_reach(depth_m.max(axis=0), camera_pose, hfov_deg)

    def project_reach(self, reach: np.ndarray, camera_pose: np.ndarray, hfov_deg: float) -> FovPatch:
        """`project` from each image column's farthest depth (metres, clipped) instead of the whole frame."""
        hfov = float(np.deg2rad(hfov_deg))
        cone = self._cone(hfov)
        angles = np.linspace(-hfov / 2, hfov / 2, reach.shape[0])
        half = cone.shape[0] / 2
        forward = (reach * self.pixels_per_meter + half).astype(np.int32)
        sideways = (reach * np.tan(angles) * self.pixels_per_meter + half).astype(np.int32)
        last = cone.shape[0] - 1
        outline = np.concatenate(
            ([[0, last]], np.stack((sideways, forward), axis=1), [[last, last]]), axis=0
        ).astype(np.int32)
        cv2.drawContours(cone, [outline], -1, (0,), -1)
        centre = (cone.shape[1] // 2, cone.shape[0] // 2)
        rotation = cv2.getRotationMatrix2D(centre, np.degrees(-camera_yaw(camera_pose)), 1.0)
        ppm = self.pixels_per_meter
        origin = self.map_size // 2
        row = int(-camera_pose[2, 3] * ppm) + origin
        col = int(camera_pose[0, 3] * ppm) + origin
        if not (0 <= row < self.map_size and 0 <= col < self.map_size):
            raise ValueError(
                f"camera at ({camera_pose[0, 3]:.2f}, {camera_pose[2, 3]:.2f}) m is outside the map"
            )
        rotated = _warp_cropped(cone, rotation)
        patch = FovPatch(row - cone.shape[0] // 2, col - cone.shape[1] // 2, rotated)
        return patch.clipped(self.map_size)


def _warp_cropped(cone: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """`cv2.warpAffine(cone, rotation, cone's size, borderValue=0).astype(np.float32)`, warping only the top-left
    part that can hold set cells: OpenCV computes each output cell from its own position alone, so a smaller
    output is the same cells, and cells past the rotated corners of the box of the cone's set cells are 0."""
    height, width = cone.shape
    rotated = np.zeros((height, width), np.float32)
    left, top, w, h = cv2.boundingRect((cone != 0).view(np.uint8))
    if w == 0:
        return rotated
    corners = np.array(
        [[left, top, 1.0], [left + w, top, 1.0], [left, top + h, 1.0], [left + w, top + h, 1.0]]
    )
    far = (corners @ rotation.T).max(axis=0)
    right = min(width, int(np.ceil(far[0])) + WARP_MARGIN_PX)
    bottom = min(height, int(np.ceil(far[1])) + WARP_MARGIN_PX)
    if right > 0 and bottom > 0:
        rotated[:bottom, :right] = cv2.warpAffine(cone, rotation, (right, bottom), borderValue=(0,))
    return rotated
