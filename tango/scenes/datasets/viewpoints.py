"""View points of object instances: navigable positions within 1 m of the instance from which it is visible.

Candidates are navigable cells whose distance to the object's bounding-box footprint is at most
`max_distance_m`, spread over angle and distance bins around the object; each is checked by rendering the
semantic sensor at low resolution while facing the object's centre, and kept when the instance covers at
least `min_pixels`. The recorded `iou` is the intersection over union of the instance mask with the
centred rectangle of half the image size (habitat's ObjectNav view points use an IoU of this kind).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import moderngl
import numpy as np
import trimesh

from tango.sim.navgrid import NavGrid
from tango.sim.render import Renderer
from tango.sim.scene import SceneObject


@dataclass(frozen=True)
class ViewPointConfig:
    """How view points are searched and judged."""

    max_distance_m: float = 1.0
    angle_bins: int = 8
    distance_bins: int = 2
    min_pixels: int = 12
    width: int = 64
    height: int = 64
    hfov_deg: float = 79.0
    camera_height_m: float = 0.88


@dataclass(frozen=True)
class ObjectView:
    """A navigable floor position and heading from which the instance is visible."""

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


def candidate_positions(
    grid: NavGrid, obj: SceneObject, config: ViewPointConfig, rng: np.random.Generator
) -> list[np.ndarray]:
    """At most one random navigable cell per (angle, distance) bin around the object, within reach."""
    rows, cols = np.nonzero(grid.navigable)
    xs = grid.origin_xz[0] + (cols + 0.5) * grid.resolution
    zs = grid.origin_xz[1] + (rows + 0.5) * grid.resolution
    distance = footprint_distance(obj, xs, zs)
    near = np.nonzero(distance <= config.max_distance_m)[0]
    if len(near) == 0:
        return []
    center = obj.center
    angle = np.arctan2(zs[near] - center[2], xs[near] - center[0])
    angle_bin = ((angle + math.pi) / (2 * math.pi) * config.angle_bins).astype(int) % config.angle_bins
    distance_bin = np.minimum(
        (distance[near] / config.max_distance_m * config.distance_bins).astype(int), config.distance_bins - 1
    )
    bins = angle_bin * config.distance_bins + distance_bin
    chosen = []
    for b in np.unique(bins):
        members = near[bins == b]
        pick = int(members[rng.integers(len(members))])
        chosen.append(np.array([xs[pick], grid.floor_y, zs[pick]]))
    return chosen


def centre_iou(mask: np.ndarray) -> float:
    """IoU of a boolean mask with the centred rectangle of half the image's width and height."""
    h, w = mask.shape
    rect = np.zeros_like(mask)
    rect[h // 4 : h - h // 4, w // 4 : w - w // 4] = True
    union = np.logical_or(mask, rect).sum()
    return float(np.logical_and(mask, rect).sum() / union) if union else 0.0


def make_visibility_renderer(
    scene_mesh: trimesh.Scene, config: ViewPointConfig, ctx: moderngl.Context | None = None
) -> Renderer:
    """A semantic-only low-resolution renderer for visibility checks (on a shared GL context when given)."""
    return Renderer(
        scene_mesh,
        width=config.width,
        height=config.height,
        hfov_deg=config.hfov_deg,
        sensors=("semantic",),
        ctx=ctx,
    )


def visible_pixels(
    renderer: Renderer, obj_id: int, position: np.ndarray, yaw: float, camera_height: float
) -> np.ndarray:
    """Boolean mask of the instance's pixels seen from the floor position and yaw."""
    frame = renderer.render(camera_pose(position, yaw, camera_height))
    assert frame.semantic is not None
    return np.asarray(frame.semantic == obj_id)


def find_view_points(
    grid: NavGrid, renderer: Renderer, obj: SceneObject, config: ViewPointConfig, rng: np.random.Generator
) -> list[ObjectView]:
    """The checked view points of one instance, best IoU first (empty when none sees it)."""
    views = []
    for position in candidate_positions(grid, obj, config, rng):
        yaw = yaw_towards(position, obj.center)
        mask = visible_pixels(renderer, obj.id, position, yaw, config.camera_height_m)
        pixels = int(mask.sum())
        if pixels >= config.min_pixels:
            views.append(ObjectView(tuple(float(v) for v in position), yaw, centre_iou(mask), pixels))  # type: ignore[arg-type]
    return sorted(views, key=lambda v: -v.iou)
