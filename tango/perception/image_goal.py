"""Image goals: keypoint matching between the goal image and the current view (SIFT, mutual ratio test, RANSAC).

A view matches the goal when the RANSAC homography keeps at least `min_inliers` correspondences; the threshold
is calibrated on rendered views (`calibrate_threshold`). Among several goals the most inliers win, with colour
histogram similarity (< 1) breaking ties only. LightGlue through kornia is optional (local weights).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

MEMO_SIZE = 32
MIN_MATCHES = 8
DISK_DESCRIPTOR_DIM = 128


@dataclass
class MatchResult:
    """Tentative matches after the ratio test, RANSAC inliers, whether it clears the threshold, and a ranking
    score (inliers plus a colour similarity in [0, 1) that only breaks ties)."""

    matches: int
    inliers: int
    matched: bool
    score: float = 0.0


class ImageMatcher(Protocol):
    """Anything with `match(goal_rgb, view_rgb) -> MatchResult`."""

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult: ...


def colour_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of hue-saturation histograms mapped to [0, 1) (a tie-breaker, never a match on its own)."""
    histograms = []
    for image in (a, b):
        hsv = cv2.cvtColor(np.ascontiguousarray(image, dtype=np.uint8), cv2.COLOR_RGB2HSV)
        histogram = cv2.calcHist([hsv], [0, 1], None, [30, 16], [0, 180, 0, 256])
        histograms.append(cv2.normalize(histogram, histogram).flatten())
    correlation = float(cv2.compareHist(histograms[0], histograms[1], cv2.HISTCMP_CORREL))
    return float(np.clip((correlation + 1.0) / 2.0, 0.0, 0.999))


def mutual_ratio_matches(
    matcher: cv2.BFMatcher, goal_desc: np.ndarray, view_desc: np.ndarray, ratio: float
) -> list[cv2.DMatch]:
    """Goal-to-view matches passing Lowe's ratio test that are also the view keypoint's nearest goal keypoint."""
    forward = matcher.knnMatch(goal_desc, view_desc, k=2)
    backward = {m[0].queryIdx: m[0].trainIdx for m in matcher.knnMatch(view_desc, goal_desc, k=1) if m}
    return [
        p[0]
        for p in forward
        if len(p) == 2
        and p[0].distance < ratio * p[1].distance
        and backward.get(p[0].trainIdx) == p[0].queryIdx
    ]


def ransac_inliers(goal_xy: np.ndarray, view_xy: np.ndarray, reprojection_px: float) -> int:
    """Correspondences consistent with one homography; 0 below MIN_MATCHES (a homography fits any 4 points)."""
    if len(goal_xy) < MIN_MATCHES:
        return 0
    _, mask = cv2.findHomography(goal_xy, view_xy, cv2.RANSAC, reprojection_px)
    return 0 if mask is None else int(mask.sum())


class SiftMatcher:
    """OpenCV SIFT keypoints, mutual nearest neighbours with Lowe's ratio test, RANSAC homography inliers.

    A low contrast threshold and a high edge threshold keep keypoints on flat-shaded rendered scenes.
    """

    def __init__(
        self,
        ratio: float,
        min_inliers: int,
        max_features: int,
        reprojection_px: float,
        contrast_threshold: float = 0.01,
        edge_threshold: float = 20.0,
    ) -> None:
        self.ratio = ratio
        self.min_inliers = min_inliers
        self.reprojection_px = reprojection_px
        self.sift = cv2.SIFT.create(
            nfeatures=max_features, contrastThreshold=contrast_threshold, edgeThreshold=edge_threshold
        )
        self.matcher = cv2.BFMatcher(cv2.NORM_L2)
        self._memo: dict[bytes, tuple[np.ndarray, np.ndarray | None]] = {}

    def features(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(keypoint xy (K,2), descriptors (K,128) or None); the last 32 images' features are memoised."""
        key = (
            hashlib.blake2b(np.ascontiguousarray(rgb).tobytes(), digest_size=16).digest()
            + str(rgb.shape).encode()
        )
        if key not in self._memo:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.pop(next(iter(self._memo)))
            self._memo[key] = self._compute_features(rgb)
        return self._memo[key]

    def _compute_features(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        gray = cv2.cvtColor(np.ascontiguousarray(rgb, dtype=np.uint8), cv2.COLOR_RGB2GRAY)
        keypoints, descriptors = self.sift.detectAndCompute(gray, None)  # type: ignore[call-overload]
        return np.array([k.pt for k in keypoints], dtype=np.float32).reshape(-1, 2), descriptors

    def match(self, goal_rgb: np.ndarray, view_rgb: np.ndarray) -> MatchResult:
        """Match one goal image against one view."""
        goal_xy, goal_desc = self.features(goal_rgb)
        view_xy, view_desc = self.features(view_rgb)
        colour = colour_similarity(goal_rgb, view_rgb)
        if goal_desc is None or view_desc is None or len(goal_desc) < 2 or len(view_desc) < 2:
            return MatchResult(0, 0, False, colour)
        good = mutual_ratio_matches(self.matcher, goal_desc, view_desc, self.ratio)
        goal_pts = goal_xy[[m.queryIdx for m in good]]
        view_pts = view_xy[[m.trainIdx for m in good]]
        inliers = ransac_inliers(goal_pts, view_pts, self.reprojection_px)
        return MatchResult(len(good), inliers, inliers >= self.min_inliers, inliers + colour)


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
        for path in (lightglue_weights, disk_weights):
            if not path or not Path(path).is_file():
                raise FileNotFoundError(
                    f"matcher=lightglue: weight file {path!r} not found (nothing is downloaded)"
                )
        self.disk = kf.DISK()
        self.disk.load_state_dict(torch.load(disk_weights, map_location="cpu")["extractor"])
        # features=None: kornia would otherwise download the DISK LightGlue weights in the constructor.
        self.lightglue = kf.LightGlue(features=None, input_dim=DISK_DESCRIPTOR_DIM)
        state = torch.load(lightglue_weights, map_location="cpu")
        layers = self.lightglue.conf.n_layers
        for i in range(layers):  # release checkpoints name the attention blocks per layer
            state = {
                k.replace(f"self_attn.{i}", f"transformers.{i}.self_attn").replace(
                    f"cross_attn.{i}", f"transformers.{i}.cross_attn"
                ): v
                for k, v in state.items()
            }
        missing = self.lightglue.load_state_dict(state, strict=False).missing_keys
        if missing:
            raise ValueError(
                f"{lightglue_weights}: not a DISK LightGlue checkpoint (missing {missing[:3]}...)"
            )
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
        colour = colour_similarity(goal_rgb, view_rgb)
        return MatchResult(len(pairs), inliers, inliers >= self.min_inliers, inliers + colour)


def best_goal(
    matcher: ImageMatcher, goals: list[np.ndarray], view_rgb: np.ndarray
) -> tuple[int, MatchResult]:
    """Index of the goal image that best matches `view_rgb` (most inliers, then colour), and its result."""
    results = [matcher.match(goal, view_rgb) for goal in goals]
    if not results:
        return -1, MatchResult(0, 0, False)
    index = int(np.argmax([r.score for r in results]))
    return index, results[index]


def calibrate_threshold(positive_inliers: list[int], negative_inliers: list[int]) -> int:
    """The inlier threshold that best separates matching from non-matching pairs (fewest errors, then lowest)."""
    candidates = sorted(set(positive_inliers) | set(negative_inliers) | {1})
    errors = [
        sum(p < t for p in positive_inliers) + sum(n >= t for n in negative_inliers) for t in candidates
    ]
    return int(candidates[int(np.argmin(errors))])
