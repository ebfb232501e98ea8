"""First-person frames of the stand-in: the static city from tango.sim.render, then what changes per frame
drawn over it with the frame's depth for occlusion: closure barriers, pedestrians, sky, daylight and rain.

`visible_signs` is the ground-truth reading of signs in view (instance ids of the same render); only the
server's oracle endpoint serves it, for components that are named oracles.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import trimesh

from tango.sim.render import Renderer
from tango.urban.city.scene import SignEntry
from tango.urban.server.world import EYE_HEIGHT_M, WEATHERS, World

HFOV_DEG = 75.0
FAR_M = 1500.0
LEGIBLE_PX = 10  # a sign's text is readable when its board is at least this tall on screen


def camera_pose(world: World) -> np.ndarray:
    """World-from-camera (x east, y up, z south): eye above the avatar, yaw clockwise from north, pitch up."""
    yaw, pitch = math.radians(world.yaw), math.radians(world.pitch)
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    rot_y = np.array([[cy, 0.0, -sy], [0.0, 1.0, 0.0], [sy, 0.0, cy]])  # turning right by yaw
    rot_x = np.array([[1.0, 0.0, 0.0], [0.0, cp, -sp], [0.0, sp, cp]])
    pose = np.eye(4)
    pose[:3, :3] = rot_y @ rot_x
    pose[:3, 3] = (world.east, world.altitude + EYE_HEIGHT_M, -world.north)
    return pose


@dataclass(frozen=True)
class Daylight:
    brightness: float
    tint: tuple[float, float, float]
    sky: tuple[int, int, int]


def daylight(clock_s: float, weather: str) -> Daylight:
    """Brightness, colour tint and sky colour for the hour and the weather."""
    hour = (clock_s / 3600.0) % 24
    if 7 <= hour < 17:
        light = Daylight(1.0, (1.0, 1.0, 1.0), (150, 190, 235))
    elif 17 <= hour < 19.5 or 5.5 <= hour < 7:
        light = Daylight(0.75, (1.08, 0.88, 0.72), (235, 150, 100))
    else:
        light = Daylight(0.32, (0.75, 0.85, 1.15), (14, 18, 38))
    if weather in ("cloudy", "overcast", "rainy", "thunderstorm"):
        grey = {"cloudy": 0.9, "overcast": 0.8, "rainy": 0.7, "thunderstorm": 0.55}[weather]
        r, g, b = (int(c * grey * 0.8 + 70 * grey) for c in (140, 145, 150))
        light = Daylight(
            light.brightness * grey, light.tint, (r, g, b) if light.brightness > 0.5 else light.sky
        )
    return light


class FirstPersonCamera:
    """Renders the avatar's view at any requested size (one renderer per size, sharing one GL context)."""

    def __init__(self, scene: trimesh.Scene, signs: dict[int, SignEntry]) -> None:
        self.scene = scene
        self.signs = signs
        self._renderers: dict[tuple[int, int], Renderer] = {}
        self._streaks: dict[tuple[int, int], list[np.ndarray]] = {}

    def _renderer(self, width: int, height: int) -> Renderer:
        key = (width, height)
        if key not in self._renderers:
            ctx = next(iter(self._renderers.values())).ctx if self._renderers else None
            if len(self._renderers) >= 4:
                self._renderers.pop(next(iter(self._renderers))).release()
            self._renderers[key] = Renderer(
                self.scene, width, height, HFOV_DEG, 0.1, FAR_M, sensors=("rgb", "depth"), ctx=ctx
            )
        return self._renderers[key]

    def render(self, world: World, width: int = 640, height: int = 480) -> np.ndarray:
        """The first-person RGB frame (HxWx3 uint8) as the camera sees it now."""
        renderer = self._renderer(width, height)
        renderer.sensors = ("rgb", "depth")
        pose = camera_pose(world)
        frame = renderer.render(pose)
        assert frame.rgb is not None and frame.depth is not None
        rgb, depth = frame.rgb, frame.depth
        projector = _Projector(pose, width, height)
        rgb = _surface_texture(rgb, depth, pose, projector.focal)
        for _, line in world.active_closures():
            _draw_barrier(rgb, depth, projector, world, line)
        if world.crowd is not None:
            _draw_pedestrians(rgb, depth, projector, world)
        return self._light(rgb, depth, world)

    def visible_signs(
        self, world: World, width: int = 640, height: int = 480, min_px: float = LEGIBLE_PX
    ) -> list[dict[str, object]]:
        """Signs and landmark plaques legible in the current view (ground truth from instance ids): the board is
        at least `min_px` tall on screen (1.6 times that in rain or darkness)."""
        renderer = self._renderer(width, height)
        renderer.sensors = ("depth", "semantic")
        try:
            frame = renderer.render(camera_pose(world))
        finally:
            renderer.sensors = ("rgb", "depth")
        assert frame.semantic is not None and frame.depth is not None
        needed = min_px * (
            1.6
            if WEATHERS[world.weather] > 0 or daylight(world.clock_s, world.weather).brightness < 0.5
            else 1.0
        )
        focal = width / 2 / math.tan(math.radians(HFOV_DEG) / 2)
        seen = []
        for instance in np.unique(frame.semantic):
            entry = self.signs.get(int(instance))
            if entry is None:
                continue
            rows, cols = np.nonzero(frame.semantic == instance)
            if rows.max() - rows.min() + 1 < needed:
                continue
            center = (cols.min() + cols.max()) / 2
            seen.append(
                {
                    "text": entry.text,
                    "kind": entry.kind,
                    "category": entry.category,
                    "bearing_deg": round(math.degrees(math.atan((center - width / 2) / focal)), 2),
                    "distance_m": round(float(np.median(frame.depth[rows, cols])), 2),
                    "box": [int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max())],
                }
            )
        return sorted(seen, key=lambda item: float(item["distance_m"]))  # type: ignore[arg-type]

    def _light(self, rgb: np.ndarray, depth: np.ndarray, world: World) -> np.ndarray:
        light = daylight(world.clock_s, world.weather)
        sky = depth <= 0
        image = rgb.astype(np.float32)
        image *= np.array(light.tint, np.float32) * light.brightness
        rain = WEATHERS[world.weather]
        if rain > 0:
            fog = (1.0 - np.exp(-np.where(sky, 400.0, depth) / (160.0 / rain)))[..., None]
            image = image * (1 - fog) + np.array([150, 155, 160], np.float32) * light.brightness * fog
        image[sky] = light.sky
        out = np.clip(image, 0, 255).astype(np.uint8)
        if rain > 0:
            out = self._rain(out, rain, int(world.clock_s * 10))
        return out

    def _rain(self, image: np.ndarray, intensity: float, tick: int) -> np.ndarray:
        key = (int(image.shape[0]), int(image.shape[1]))
        if key not in self._streaks:
            rng = np.random.default_rng(0)
            layers = []
            for _ in range(4):
                layer = np.zeros(key, np.uint8)
                for _ in range(int(key[0] * key[1] / 900)):
                    x, y = int(rng.integers(key[1])), int(rng.integers(key[0]))
                    cv2.line(layer, (x, y), (x - 3, y + 14), (255,), 1)
                layers.append(layer)
            self._streaks[key] = layers
        streaks = self._streaks[key][tick % 4].astype(np.float32)[..., None] / 255.0 * 0.45 * intensity
        return np.clip(image * (1 - streaks) + 210 * streaks, 0, 255).astype(np.uint8)


JOINT_SPACING_M = 0.8
JOINT_WIDTH_M = 0.05
JOINT_SHADE = 0.62
TEXTURE_TOP_M = 2.4  # walls are jointed below this height only: shop boards above stay clean for reading


def _surface_texture(rgb: np.ndarray, depth: np.ndarray, pose: np.ndarray, focal: float) -> np.ndarray:
    """Paving and masonry joints in world space: a 0.8 m lattice darkened on the ground and on walls below 2.4 m,
    fading with distance. The flat-shaded scene otherwise shows too few edges for a scene-readiness check like
    UrbanGround's (Canny edge density of the start view) to tell a loaded view from an empty one."""
    height, width = depth.shape
    v, u = np.mgrid[0:height, 0:width].astype(np.float32)
    z = depth.astype(np.float32)
    camera = np.stack([(u - width / 2) / focal * z, -(v - height / 2) / focal * z, -z], axis=-1)
    points = camera @ pose[:3, :3].T.astype(np.float32) + pose[:3, 3].astype(np.float32)
    du, dv = np.gradient(points, axis=1), np.gradient(points, axis=0)
    normal_axis = np.abs(np.cross(du, dv)).argmax(axis=-1)
    phase = np.abs((points / JOINT_SPACING_M + 0.5) % 1.0 - 0.5) * JOINT_SPACING_M
    phase[np.arange(3)[None, None, :] == normal_axis[..., None]] = np.inf  # the axis across the surface
    joint = phase.min(axis=-1) < JOINT_WIDTH_M
    ground = normal_axis == 1
    joint &= (z > 0) & (ground | (points[..., 1] - pose[1, 3] + 1.6 < TEXTURE_TOP_M))
    shade = 1.0 - (1.0 - JOINT_SHADE) * np.exp(-z / 40.0)
    return np.where(joint[..., None], rgb * shade[..., None], rgb).astype(np.uint8)


class _Projector:
    def __init__(self, pose: np.ndarray, width: int, height: int) -> None:
        self.view = np.linalg.inv(pose)
        self.width, self.height = width, height
        self.focal = width / 2 / math.tan(math.radians(HFOV_DEG) / 2)

    def project(self, east: float, up: float, north: float) -> tuple[float, float, float] | None:
        """(x, y, depth) in pixels and metres, or None behind the camera."""
        p = self.view @ np.array([east, up, -north, 1.0])
        if -p[2] < 0.3:
            return None
        return (
            self.width / 2 + self.focal * p[0] / -p[2],
            self.height / 2 - self.focal * p[1] / -p[2],
            -p[2],
        )


def _paint(rgb: np.ndarray, depth: np.ndarray, polygon: np.ndarray, at_depth: float, colour: tuple) -> None:
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, rgb.shape[1] - 1), min(y1, rgb.shape[0] - 1)
    if x1 < x0 or y1 < y0:
        return
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(mask, [np.round(polygon - (x0, y0)).astype(np.int32)], (1,))
    patch = depth[y0 : y1 + 1, x0 : x1 + 1]
    visible = (mask > 0) & ((patch <= 0) | (patch > at_depth))
    rgb[y0 : y1 + 1, x0 : x1 + 1][visible] = colour


def _draw_barrier(
    rgb: np.ndarray, depth: np.ndarray, projector: _Projector, world: World, line: list[tuple[float, float]]
) -> None:
    """A red-and-white road-closure barrier, 1.1 m tall, along the closure line (1 m pieces)."""
    for (ax, ay), (bx, by) in itertools.pairwise(line):
        length = math.hypot(bx - ax, by - ay)
        pieces = max(1, math.ceil(length))
        for k in range(pieces):
            t0, t1 = k / pieces, (k + 1) / pieces
            p0 = (ax + (bx - ax) * t0, ay + (by - ay) * t0)
            p1 = (ax + (bx - ax) * t1, ay + (by - ay) * t1)
            g0, g1 = world.raster.height_at(*p0), world.raster.height_at(*p1)
            corners = [
                projector.project(p0[0], g0 + 0.2, p0[1]),
                projector.project(p1[0], g1 + 0.2, p1[1]),
                projector.project(p1[0], g1 + 1.1, p1[1]),
                projector.project(p0[0], g0 + 1.1, p0[1]),
            ]
            if any(c is None for c in corners):
                continue
            polygon = np.array([(c[0], c[1]) for c in corners if c is not None])
            distance = float(np.mean([c[2] for c in corners if c is not None]))
            _paint(rgb, depth, polygon, distance, (220, 30, 30) if k % 2 == 0 else (245, 245, 245))


def _draw_pedestrians(rgb: np.ndarray, depth: np.ndarray, projector: _Projector, world: World) -> None:
    assert world.crowd is not None
    for (east, north), colour in zip(world.crowd.positions, world.crowd.colours):
        if abs(east - world.east) > 60 or abs(north - world.north) > 60:
            continue
        ground = world.raster.height_at(east, north)
        feet, head = projector.project(east, ground, north), projector.project(east, ground + 1.7, north)
        if feet is None or head is None:
            continue
        half = 0.25 * projector.focal / feet[2]
        body = np.array(
            [
                (feet[0] - half, feet[1]),
                (feet[0] + half, feet[1]),
                (head[0] + half, head[1] + half * 1.6),
                (head[0] - half, head[1] + half * 1.6),
            ]
        )
        _paint(rgb, depth, body, feet[2], tuple(int(c) for c in colour))
        radius = half * 0.8
        face = np.array(
            [
                (head[0] + radius * math.cos(a), head[1] + radius * (1 + math.sin(a)))
                for a in np.linspace(0, 2 * math.pi, 10)
            ]
        )
        _paint(rgb, depth, face, feet[2], (225, 190, 160))
