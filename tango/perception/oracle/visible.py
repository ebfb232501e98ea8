"""ORACLE visibility: which annotated objects the semantic frame of an observation shows, and where they are."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tango.perception.oracle.scene import OracleScene
from tango.types.observation import Observation
from tango.types.scene import SceneObject

NEGATIVE_IDS = "oracle perception: the semantic frame has negative instance ids"


@dataclass
class VisibleObject:
    """An annotated object with at least the minimum pixel area in the frame."""

    object: SceneObject
    pixels: int
    box: np.ndarray
    window: tuple[slice, slice]
    local_mask: np.ndarray
    point: np.ndarray

    def paint(self, canvas: np.ndarray) -> np.ndarray:
        """Write this object's mask into a full-frame boolean `canvas` (returned)."""
        canvas[self.window] = self.local_mask
        return canvas


def visible_objects(obs: Observation, scene: OracleScene, min_pixels: int) -> list[VisibleObject]:
    """Annotated objects visible in `obs.semantic` with >= `min_pixels` pixels, largest first.

    Computed once per frame and size: the ground truth, the detector, the value scorer and the answerer all ask
    about the frame the agent just received, so the list is shared between them (do not modify it)."""
    memo = scene.memo
    if memo.frame is not obs:
        memo.frame, memo.results = obs, {}
    key = ("visible", min_pixels)
    if key not in memo.results:
        memo.results[key] = _find_visible(obs, scene, min_pixels)
    found: list[VisibleObject] = memo.results[key]
    return found


def _find_visible(obs: Observation, scene: OracleScene, min_pixels: int) -> list[VisibleObject]:
    """One pass for every object's pixel count and box (`_count_boxes`), then each annotated object's mask and
    point inside its own box only. The point is `region_point`'s to the bit: the median row and column of the
    object's pixels with a valid depth, read from per-row / per-column counts (integers, so the median is
    exact), at the median valid depth (whose validity is read inside the box only)."""
    if obs.semantic is None:
        raise ValueError("oracle perception needs the semantic sensor (Observation.semantic is None)")
    semantic = np.asarray(obs.semantic)
    objects = scene.objects
    top = max(objects, default=0)
    if top <= 0:
        if semantic.size and semantic.min() < 0:
            raise ValueError(NEGATIVE_IDS)
        return []
    boxes, negative = _count_boxes(semantic, top)
    if negative:
        raise ValueError(NEGATIVE_IDS)
    camera = _Camera(obs)
    found = []
    for object_id in np.flatnonzero(boxes[:, 0] >= max(min_pixels, 1)).tolist():
        if object_id not in objects:
            continue
        pixels, row0, row1, col0, col1 = boxes[object_id].tolist()
        window = (slice(row0, row1), slice(col0, col1))
        local = semantic[window] == object_id
        box = np.array([col0, row0, col1, row1], dtype=np.float32)
        point = camera.point(local, row0, col0)
        found.append(VisibleObject(objects[object_id], pixels, box, window, local, point))
    found.sort(key=lambda v: -v.pixels)
    return found


@njit(cache=True, nogil=True)
def _count_boxes(semantic: np.ndarray, top: int) -> tuple[np.ndarray, bool]:
    """(top + 1, 5) int64: per instance id its pixel count, first row, last row + 1, first column and last
    column + 1 (what `ndimage.find_objects(semantic, max_label=top)` boxes, with the count); a zero count for
    ids not in the frame. Id 0 and ids above `top` are not counted. Also whether any id is negative. Each row is
    read as runs of one id, so a box is updated once per run, not once per pixel."""
    height, width = semantic.shape
    boxes = np.zeros((top + 1, 5), np.int64)
    negative = False
    for row in range(height):
        col = 0
        while col < width:
            label = semantic[row, col]
            start = col
            col += 1
            while col < width and semantic[row, col] == label:
                col += 1
            if label <= 0 or label > top:
                negative |= label < 0
                continue
            if boxes[label, 0] == 0:
                boxes[label, 1], boxes[label, 3], boxes[label, 4] = row, start, col
            else:
                boxes[label, 3] = min(boxes[label, 3], start)
                boxes[label, 4] = max(boxes[label, 4], col)
            boxes[label, 2] = row + 1
            boxes[label, 0] += col - start
    return boxes, negative


class _Camera:
    """`pixel_to_world` of one frame, with the intrinsics, pose and depth limit read once (the same arithmetic)."""

    def __init__(self, obs: Observation) -> None:
        self.depth = np.asarray(obs.depth)
        self.k = obs.intrinsics()
        self.pose = np.asarray(obs.camera_pose, dtype=np.float64)
        self.clipped = obs.depth_clip is not None
        clip = obs.depth_clip if obs.depth_clip is not None else np.inf
        self.clip = np.result_type(self.depth, clip).type(clip)
        """The far clip in the type numpy compares `depth < depth_clip` in (value-based casting)."""

    def point(self, local: np.ndarray, row0: int, col0: int) -> np.ndarray:
        """World point of the pixels set in `local` (a window whose top-left pixel is (row0, col0)) with a valid
        depth: positive, and short of the far clip (finite when there is none), as region_point; NaNs if none."""
        window = self.depth[row0 : row0 + local.shape[0], col0 : col0 + local.shape[1]]
        total, v, u, depth_m = _region_medians(local, window, self.clip, self.clipped)
        if total == 0:
            return np.full(3, np.nan)
        v, u = v + row0, u + col0
        k = self.k
        x = (u - k[0, 2]) / k[0, 0] * depth_m
        y = -(v - k[1, 2]) / k[1, 1] * depth_m
        return (self.pose @ np.array([x, y, -depth_m, 1.0]))[:3]


@njit(cache=True, nogil=True)
def _region_medians(
    local: np.ndarray, depth: np.ndarray, clip: np.floating, clipped: bool
) -> tuple[int, float, float, float]:
    """For the pixels set in `local` with a valid depth (depth > 0, and depth < clip when `clipped`, else
    finite): their count, the median of their rows and of their columns (numpy's median of integer positions:
    the middle one, or the mean of the two middle ones) and `median` of their depths (the two middle values
    summed in the depth's type, then halved in float64); (0, nan, nan, nan) when there is none. One pass: the
    positions' medians come from per-row and per-column counts, the depths' from partitioning only the
    region's values."""
    height, width = local.shape
    in_rows = np.zeros(height, np.int64)
    in_cols = np.zeros(width, np.int64)
    values = np.empty(height * width, depth.dtype)
    total = 0
    for r in range(height):
        for c in range(width):
            d = depth[r, c]
            if local[r, c] and d > 0 and (d < clip if clipped else np.isfinite(d)):
                in_rows[r] += 1
                in_cols[c] += 1
                values[total] = d
                total += 1
    if total == 0:
        return 0, np.nan, np.nan, np.nan
    half = total // 2
    part = np.partition(values[:total], half)  # (the value below the middle: the largest of the lower part)
    if total % 2:
        depth_m = float(part[half])
    else:
        depth_m = float(part[:half].max() + part[half]) / 2.0
    return total, _counted_median(in_rows, total), _counted_median(in_cols, total), depth_m


@njit(cache=True, nogil=True)
def _counted_median(counts: np.ndarray, total: int) -> float:
    """numpy's median of integer positions given how many there are at each position (`total` in all): the
    position of the middle one, or the mean of the two middle ones' positions."""
    half = total // 2
    lower, upper, seen = -1, -1, 0
    for position in range(counts.shape[0]):
        seen += counts[position]
        if lower < 0 and seen > half - 1:
            lower = position
        if seen > half:
            upper = position
            break
    if total % 2:
        return float(upper)
    return float(lower + upper) / 2.0


def full_masks(visible: list[VisibleObject], shape: tuple[int, int]) -> np.ndarray:
    """(N, H, W) boolean masks of `visible`, written into one preallocated array."""
    masks = np.zeros((len(visible), *shape), dtype=bool)
    for canvas, item in zip(masks, visible):
        item.paint(canvas)
    return masks
