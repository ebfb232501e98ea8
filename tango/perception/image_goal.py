"""Image goals: keypoint matching between the goal image and the current view (SIFT + ratio test + RANSAC).

A view matches the goal when the RANSAC homography keeps at least `min_inliers` correspondences; the threshold
is calibrated on rendered views (`calibrate_threshold`). LightGlue through kornia is optional (local weights).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np


@dataclass
class MatchResult:
    """Tentative matches after the ratio test, RANSAC inliers, and whether it clears the threshold."""

    matches: int
    inliers: int
    matched: bool


class ImageMatcher(Protocol):
    """Anything with `match(goal_rgb, view_rgb) -> MatchResult`."""

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult: ...


def ransac_inliers(goal_xy: np.ndarray, view_xy: np.ndarray, reprojection_px: float) -> int:
    """Number of correspondences consistent with one homography (0 with fewer than 4)."""
    if len(goal_xy) < 4:
        return 0
    _, mask = cv2.findHomography(goal_xy, view_xy, cv2.RANSAC, reprojection_px)
    return 0 if mask is None else int(mask.sum())


class SiftMatcher:
    """OpenCV SIFT keypoints, Lowe's ratio test, RANSAC homography inliers."""

    def __init__(self, ratio: float, min_inliers: int, max_features: int, reprojection_px: float) -> None:
        self.ratio = ratio
        self.min_inliers = min_inliers
        self.reprojection_px = reprojection_px
        self.sift = cv2.SIFT.create(nfeatures=max_features)
        self.matcher = cv2.BFMatcher(cv2.NORM_L2)

    def features(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(keypoint xy (K,2), descriptors (K,128) or None)."""
        gray = cv2.cvtColor(np.ascontiguousarray(rgb, dtype=np.uint8), cv2.COLOR_RGB2GRAY)
        keypoints, descriptors = self.sift.detectAndCompute(gray, None)  # type: ignore[call-overload]
        return np.array([k.pt for k in keypoints], dtype=np.float32).reshape(-1, 2), descriptors

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult:
        """Match one goal image against one view."""
        goal_xy, goal_desc = self.features(goal_rgb)
        view_xy, view_desc = self.features(view_rgb)
        if goal_desc is None or view_desc is None or len(goal_desc) < 2 or len(view_desc) < 2:
            return MatchResult(0, 0, False)
        pairs = self.matcher.knnMatch(goal_desc, view_desc, k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < self.ratio * p[1].distance]
        goal_pts = goal_xy[[m.queryIdx for m in good]]
        view_pts = view_xy[[m.trainIdx for m in good]]
        inliers = ransac_inliers(goal_pts, view_pts, self.reprojection_px)
        return MatchResult(len(good), inliers, inliers >= self.min_inliers)


class LightGlueMatcher:
    """DISK features + LightGlue matches (kornia), RANSAC inliers; needs both weight files locally."""

    def __init__(
        self, lightglue_weights: str, disk_weights: str, min_inliers: int, reprojection_px: float
    ) -> None:
        try:
            import kornia.feature as kf
        except ImportError as error:
            raise ImportError(
                "matcher=lightglue needs kornia (pip install kornia) and local DISK/LightGlue weights; "
                "use matcher.kind=sift otherwise"
            ) from error
        import torch

        self.torch = torch
        self.min_inliers = min_inliers
        self.reprojection_px = reprojection_px
        self.disk = kf.DISK()
        self.disk.load_state_dict(torch.load(disk_weights, map_location="cpu")["extractor"])
        self.lightglue = kf.LightGlue("disk", weights=None)
        self.lightglue.load_state_dict(torch.load(lightglue_weights, map_location="cpu"))
        self.disk.eval()
        self.lightglue.eval()

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult:
        """Match one goal image against one view."""
        torch = self.torch
        with torch.inference_mode():
            images = [
                torch.from_numpy(im).permute(2, 0, 1).float()[None] / 255.0 for im in (goal_rgb, view_rgb)
            ]
            feats = [self.disk(im, n=2048, pad_if_not_divisible=True)[0] for im in images]
            data = {
                f"image{i}": {"keypoints": f.keypoints[None], "descriptors": f.descriptors[None],
                              "image_size": torch.tensor(im.shape[-2:][::-1])[None]}
                for i, (f, im) in enumerate(zip(feats, images))
            }  # fmt: skip
            pairs = self.lightglue(data)["matches"][0].numpy()
        goal_pts = feats[0].keypoints.numpy()[pairs[:, 0]]
        view_pts = feats[1].keypoints.numpy()[pairs[:, 1]]
        inliers = ransac_inliers(goal_pts, view_pts, self.reprojection_px)
        return MatchResult(len(pairs), inliers, inliers >= self.min_inliers)


def best_goal(
    matcher: ImageMatcher, goals: list[np.ndarray], view_rgb: np.ndarray
) -> tuple[int, MatchResult]:
    """Index of the goal image that matches `view_rgb` with the most inliers, and its result (-1 if none)."""
    results = [matcher.match(goal, view_rgb) for goal in goals]
    if not results:
        return -1, MatchResult(0, 0, False)
    index = int(np.argmax([r.inliers for r in results]))
    return index, results[index]


def calibrate_threshold(positive_inliers: list[int], negative_inliers: list[int]) -> int:
    """The inlier threshold that best separates matching from non-matching pairs (fewest errors, then lowest)."""
    candidates = sorted(set(positive_inliers) | set(negative_inliers) | {1})
    errors = [
        sum(p < t for p in positive_inliers) + sum(n >= t for n in negative_inliers) for t in candidates
    ]
    return int(candidates[int(np.argmin(errors))])
