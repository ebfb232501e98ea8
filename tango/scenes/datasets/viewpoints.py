"""View points of object instances, laid out like HM3D's: a 0.1 m grid of navigable positions within 1 m of
the instance, kept where the instance is visible, each with habitat's `iou` visibility score.

Candidates are the navigability grid's cells on a lattice of `spacing_m` (every other 5 cm cell: 0.1 m) whose
floor-plane distance to the object's bounding box is at most `max_distance_m` (the published generator
measures the same distance from the box, ovon's `_make_object_viewpoints`). Each candidate looks level at the
object's centre from the camera height and is checked by an instance-id render of its own camera
(`VisibilityRenderer`, exact pixels at a fraction of a full render's cost); it is kept when the instance covers
at least `min_pixels`. `iou` is habitat-lab's ObjectViewLocation score: the intersection over union of the
instance mask with a centred rectangle (here half the image's width and height). View points are listed best
`iou` first, as the published files list them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tango.scenes.datasets.visibility import VisibilityRenderer
from tango.sim.navgrid import NavGrid
from tango.types.scene import SceneObject


@dataclass(frozen=True)
class ViewPointConfig:
    """How view points are laid out and judged."""

    max_distance_m: float = 1.0
    spacing_m: float = 0.1
    min_pixels: int = 12
    width: int = 64
    height: int = 64
    hfov_deg: float = 79.0
    camera_height_m: float = 0.88

    @property
    def frame_pixels(self) -> int:
        """Pixels of one visibility frame."""
        return self.width * self.height


@dataclass(frozen=True)
class ObjectView:
    """A navigable floor position and heading from which the instance is visible, with its visibility."""

    position: tuple[float, float, float]
    yaw: float
    iou: float
    pixels: int

    @property
    def rotation(self) -> tuple[float, float, float, float]:
        """The heading as a quaternion [x, y, z, w]."""
        return yaw_quaternion(self.yaw)


def yaw_quaternion(yaw: float) -> tuple[float, float, float, float]:
    """Rotation about +y by `yaw` radians as [x, y, z, w] (habitat's start_rotation layout)."""
    return (0.0, math.sin(yaw / 2.0), 0.0, math.cos(yaw / 2.0))


def quaternion_yaw(rotation: tuple[float, float, float, float]) -> float:
    """The yaw of a rotation about +y given as [x, y, z, w] (inverse of yaw_quaternion)."""
    return 2.0 * math.atan2(rotation[1], rotation[3])


def yaw_towards(position: np.ndarray, target: np.ndarray) -> float:
    """The yaw that faces `target` from `position` (yaw 0 looks along -z, positive turns left)."""
    dx, dz = float(target[0] - position[0]), float(target[2] - position[2])
    return math.atan2(-dx, -dz)


def camera_pose(position: np.ndarray, yaw: float, camera_height: float) -> np.ndarray:
    """4x4 world-from-camera matrix of a level camera `camera_height` above the floor position."""
    c, s = math.cos(yaw), math.sin(yaw)
    pose = np.eye(4)
    pose[:3, :3] = [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
    pose[:3, 3] = [float(position[0]), float(position[1]) + camera_height, float(position[2])]
    return pose


def footprint_distance(obj: SceneObject, x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """xz distance from points to the object's bounding-box footprint (0 inside it)."""
    dx = np.maximum(np.maximum(obj.bbox_min[0] - x, x - obj.bbox_max[0]), 0.0)
    dz = np.maximum(np.maximum(obj.bbox_min[2] - z, z - obj.bbox_max[2]), 0.0)
    return np.hypot(dx, dz)


def lattice_step(grid: NavGrid, spacing_m: float) -> int:
    """How many grid cells apart lattice points are (at least 1)."""
    return max(1, round(spacing_m / grid.resolution))


def candidate_positions(grid: NavGrid, obj: SceneObject, config: ViewPointConfig) -> np.ndarray:
    """(N, 3) floor positions: navigable lattice cells within `max_distance_m` of the object's footprint."""
    step = lattice_step(grid, config.spacing_m)
    rows, cols = np.nonzero(grid.navigable)
    on_lattice = (rows % step == 0) & (cols % step == 0)
    rows, cols = rows[on_lattice], cols[on_lattice]
    xs = grid.origin_xz[0] + (cols + 0.5) * grid.resolution
    zs = grid.origin_xz[1] + (rows + 0.5) * grid.resolution
    near = footprint_distance(obj, xs, zs) <= config.max_distance_m
    return np.stack([xs[near], np.full(int(near.sum()), grid.floor_y), zs[near]], axis=1)


def centre_iou(mask: np.ndarray) -> float:
    """IoU of a boolean mask with the centred rectangle of half the image's width and height."""
    h, w = mask.shape
    rect = np.zeros_like(mask)
    rect[h // 4 : h - h // 4, w // 4 : w - w // 4] = True
    union = np.logical_or(mask, rect).sum()
    return float(np.logical_and(mask, rect).sum() / union) if union else 0.0


def find_view_points(
    grid: NavGrid, renderer: VisibilityRenderer, obj: SceneObject, config: ViewPointConfig
) -> list[ObjectView]:
    """The checked view points of one instance, best IoU first (empty when none sees it)."""
    positions = candidate_positions(grid, obj, config)
    if len(positions) == 0:
        return []
    yaws = [yaw_towards(p, obj.center) for p in positions]
    poses = [camera_pose(p, yaw, config.camera_height_m) for p, yaw in zip(positions, yaws, strict=True)]
    views = []
    for position, yaw, mask in zip(positions, yaws, renderer.masks(obj, poses), strict=True):
        pixels = int(mask.sum())
        if pixels >= config.min_pixels:
            point = (float(position[0]), float(position[1]), float(position[2]))
            views.append(ObjectView(point, yaw, centre_iou(mask), pixels))
    return sorted(views, key=lambda v: -v.iou)
