"""Language-grounded value map with VLFM's confidence-weighted fusion, one channel per prompt."""

from __future__ import annotations

import cv2
import numpy as np

from tango.mapping.config import MapConfig
from tango.mapping.fov_patch import FovPatch, FovProjector
from tango.mapping.geometry import column_reach
from tango.mapping.kernels import fuse_cells, masked_medians
from tango.types.observation import Observation

DECISION_THRESHOLD = 0.35


class ValueMap:
    """Per-cell values (size, size, channels) and confidence (size, size), fused frame by frame.

    Fusion (VLFM's default weighted rule): a new confidence below 0.35 that is also below the stored one is
    dropped; otherwise v = (c_old v_old + c_new v_new) / (c_old + c_new), c = (c_old^2 + c_new^2) / (c_old + c_new).
    Only the frame's window is touched; cells outside it are unchanged, exactly as a full-map fusion leaves them.
    """

    def __init__(self, channels: int, config: MapConfig | None = None) -> None:
        self.config = config or MapConfig()
        size = self.config.size_px
        self.channels = channels
        self.values = np.zeros((size, size, channels), np.float32)
        self.confidence = np.zeros((size, size), np.float32)
        self.projector = FovProjector(
            self.config.pixels_per_meter, size, self.config.min_depth, self.config.max_depth
        )
        self._disks: dict[int, np.ndarray] = {}
        self._seen = False

    def has_confidence(self) -> bool:
        """`self.confidence.any()`, without reading the whole map once it is true: fusion never returns a cell's
        confidence to 0 (a dropped update keeps the old one; a kept one adds new**2 / total > 0). Until then
        OpenCV's `hasNonZero` reads it (the same answer: NaN counts, -0.0 does not; a third of numpy's time)."""
        if not self._seen:
            self._seen = bool(cv2.hasNonZero(self.confidence))
        return self._seen

    def project(self, obs: Observation) -> FovPatch:
        """The FOV patch of an observation (shared with the feature memory so it is computed once)."""
        reach = column_reach(obs.depth, self.config.min_depth, self.config.max_depth)
        return self.projector.project_reach(reach, obs.camera_pose, obs.hfov_deg)

    def update(self, obs: Observation, scores: np.ndarray) -> FovPatch:
        """Project the frame and fuse its per-prompt scores; returns the patch used."""
        patch = self.project(obs)
        self.fuse(patch, scores)
        return patch

    def fuse(self, patch: FovPatch, scores: np.ndarray) -> None:
        """Fuse one score per channel over the patch's cells with the confidence-weighted rule."""
        scores = np.asarray(scores, dtype=np.float32).reshape(-1)
        if scores.shape[0] != self.channels:
            raise ValueError(f"value map has {self.channels} channels but got {scores.shape[0]} scores")
        # Cells the frame does not see (confidence 0) keep their value and confidence under the rule (finite
        # scores: a non-finite one would zero them through nan_to_num), so only the box of the seen cells is fused.
        left, top, w, h = 0, 0, patch.confidence.shape[1], patch.confidence.shape[0]
        if np.isfinite(scores).all():
            left, top, w, h = cv2.boundingRect((patch.confidence > 0).view(np.uint8))
        rows = slice(patch.row0 + top, patch.row0 + top + h)
        cols = slice(patch.col0 + left, patch.col0 + left + w)
        new_conf = patch.confidence[top : top + h, left : left + w]
        fuse_cells(self.values[rows, cols], self.confidence[rows, cols], new_conf, scores, DECISION_THRESHOLD)
        if not self._seen:
            self._seen = bool(self.confidence[rows, cols].any())

    def _disk(self, radius_px: int) -> np.ndarray:
        if radius_px not in self._disks:
            disk = np.zeros((2 * radius_px + 1, 2 * radius_px + 1), np.uint8)
            self._disks[radius_px] = cv2.circle(disk, (radius_px, radius_px), radius_px, (255,), -1) > 0
        return self._disks[radius_px]

    def values_near(self, points: np.ndarray, radius_m: float | None = None) -> np.ndarray:
        """(N, channels) median of the seen (non-zero) values within radius of each world point; -1 if none."""
        radius = int(
            (self.config.frontier_value_radius if radius_m is None else radius_m)
            * self.config.pixels_per_meter
        )
        disk = self._disk(radius)
        size, ppm, origin = self.config.size_px, self.config.pixels_per_meter, self.config.size_px // 2
        out = np.full((len(points), self.channels), -1.0)
        for i, point in enumerate(np.atleast_2d(points)):
            row = origin - int(point[2] * ppm)
            col = int(point[0] * ppm) + origin
            top, left = max(0, row - radius), max(0, col - radius)
            crop = self.values[top : min(size, row + radius + 1), left : min(size, col + radius + 1)]
            masked_medians(crop, disk[: crop.shape[0], : crop.shape[1]], out[i])
        return out
