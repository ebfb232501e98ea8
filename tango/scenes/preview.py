"""Scene previews: a labelled top-down map and first-person RGB / depth / semantic views as PNGs.

The map shows rooms (coloured by type), the navigable area of `NavGrid` (non-navigable floor is darkened),
object boxes with their categories, and the poses of the first-person views.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tango.sim.navgrid import NavGrid, NavGridConfig
from tango.sim.render import Renderer
from tango.sim.scene import LoadedScene, load_scene
from tango.types.poses import camera_pose
from tango.types.scene import SceneAnnotations, SceneObject

LOG = logging.getLogger(__name__)

ROOM_COLORS: dict[str, tuple[int, int, int]] = {
    "kitchen": (206, 214, 222),
    "living room": (222, 190, 150),
    "bedroom": (200, 184, 222),
    "bathroom": (176, 222, 230),
    "office": (184, 212, 170),
    "dining room": (236, 206, 160),
    "hallway": (200, 198, 192),
}
UNKNOWN_ROOM = (210, 210, 210)


@dataclass(frozen=True)
class PreviewConfig:
    """Map scale and the first-person camera (the simulator's defaults: hfov 79, camera at 0.88 m)."""

    pixels_per_metre: float = 80.0
    views: int = 4
    width: int = 320
    height: int = 320
    hfov_deg: float = 79.0
    camera_height: float = 0.88
    depth_max: float = 10.0
    depth_shown_max: float = 6.0
    seed: int = 0


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def _id_color(object_id: int) -> tuple[int, int, int]:
    """A stable, well-spread colour per instance id (0 is black)."""
    if object_id == 0:
        return (0, 0, 0)
    hue = (object_id * 0.61803398875) % 1.0
    rgb = Image.new("HSV", (1, 1), (int(hue * 255), 200, 230)).convert("RGB").getpixel((0, 0))
    return tuple(int(c) for c in rgb)  # type: ignore[return-value, union-attr]


def choose_views(
    grid: NavGrid, annotations: SceneAnnotations | None, count: int, rng: np.random.Generator
) -> list[tuple[np.ndarray, float]]:
    """Navigable (position, yaw) pairs: one per room when annotated, looking at the room's largest object."""
    poses: list[tuple[np.ndarray, float]] = []
    rooms = list(annotations.rooms) if annotations else []
    for room in rooms[:count]:
        centre = np.array(
            [(room.min_xz[0] + room.max_xz[0]) / 2, grid.floor_y, (room.min_xz[1] + room.max_xz[1]) / 2]
        )
        position = grid.snap(centre)
        members = [o for o in annotations.objects if o.room_id == room.id] if annotations else []
        if members:
            target = max(
                members, key=lambda o: (o.bbox_max[0] - o.bbox_min[0]) * (o.bbox_max[2] - o.bbox_min[2])
            ).center
            d = target - position
            yaw = float(np.arctan2(-d[0], -d[2]))
        else:
            yaw = float(rng.uniform(-np.pi, np.pi))
        poses.append((position, yaw))
    while len(poses) < count:
        poses.append((grid.sample_navigable_point(rng), float(rng.uniform(-np.pi, np.pi))))
    return poses


def _depth_image(depth: np.ndarray, shown_max: float) -> Image.Image:
    """Turbo colour map from near (red) to `shown_max` metres and beyond (blue); no reading is black."""
    scaled = (255 - np.clip(depth / shown_max, 0, 1) * 255).astype(np.uint8)
    bgr = cv2.applyColorMap(scaled, cv2.COLORMAP_TURBO)
    rgb = np.where((depth > 0)[..., None], bgr[..., ::-1], 0).astype(np.uint8)
    return Image.fromarray(rgb, "RGB")


def _semantic_image(semantic: np.ndarray, annotations: SceneAnnotations | None) -> Image.Image:
    ids = np.unique(semantic)
    palette = np.zeros((int(ids.max()) + 1, 3), dtype=np.uint8)
    for i in ids:
        palette[i] = _id_color(int(i))
    image = Image.fromarray(palette[semantic], "RGB")
    if annotations is None:
        return image
    draw = ImageDraw.Draw(image)
    font = _font(11)
    known = {o.id: o.category for o in annotations.objects}
    for i in ids:
        rows, cols = np.nonzero(semantic == i)
        if i == 0 or int(i) not in known or len(rows) < 150:
            continue
        x, y = float(np.median(cols)), float(np.median(rows))
        draw.text(
            (x, y),
            known[int(i)],
            fill=(255, 255, 255),
            font=font,
            anchor="mm",
            stroke_width=2,
            stroke_fill=(0, 0, 0),
        )
    return image


def _stands_on(obj: SceneObject, other: SceneObject) -> bool:
    """True when obj's footprint lies within other's and obj starts at or above other's top (a tv on its stand)."""
    return (
        obj.id != other.id
        and obj.bbox_min[1] >= other.bbox_max[1] - 0.35
        and obj.bbox_min[1] > 0.05
        and other.bbox_min[0] - 0.02 <= obj.bbox_min[0]
        and obj.bbox_max[0] <= other.bbox_max[0] + 0.02
        and other.bbox_min[2] - 0.02 <= obj.bbox_min[2]
        and obj.bbox_max[2] <= other.bbox_max[2] + 0.02
    )


def _draw_map(
    loaded: LoadedScene, grid: NavGrid, views: list[tuple[np.ndarray, float]], ppm: float
) -> Image.Image:
    rows, cols = grid.navigable.shape
    scale = ppm * grid.resolution
    width, height = int(cols * scale), int(rows * scale)
    x0, z0 = grid.origin_xz

    def px(x: float, z: float) -> tuple[float, float]:
        return (x - x0) * ppm, (z - z0) * ppm

    image = Image.new("RGB", (width, height), (48, 48, 52))
    draw = ImageDraw.Draw(image)
    ann = loaded.annotations
    for room in ann.rooms if ann else []:
        draw.rectangle([*px(*room.min_xz), *px(*room.max_xz)], fill=ROOM_COLORS.get(room.type, UNKNOWN_ROOM))
    if not ann or not ann.rooms:
        draw.rectangle([0, 0, width, height], fill=UNKNOWN_ROOM)
    blocked = Image.fromarray((~grid.navigable * 255).astype(np.uint8), "L").resize(
        (width, height), Image.Resampling.NEAREST
    )
    shade = Image.new("RGB", (width, height), (70, 70, 76))
    image = Image.composite(Image.blend(image, shade, 0.55), image, blocked)
    draw = ImageDraw.Draw(image)
    label_font, room_font = _font(11), _font(16)
    for obj in ann.objects if ann else []:
        a, b = px(obj.bbox_min[0], obj.bbox_min[2]), px(obj.bbox_max[0], obj.bbox_max[2])
        draw.rectangle([*a, *b], outline=_id_color(obj.id), width=2)
    objects = list(ann.objects) if ann else []
    for obj in objects:
        c = px(float(obj.center[0]), float(obj.center[2]))
        if any(_stands_on(obj, other) for other in objects):
            c = (c[0], c[1] + 12)
        draw.text(
            c,
            obj.category,
            fill=(20, 20, 20),
            font=label_font,
            anchor="mm",
            stroke_width=2,
            stroke_fill=(255, 255, 255),
        )
    for room in ann.rooms if ann else []:
        c = px((room.min_xz[0] + room.max_xz[0]) / 2, room.min_xz[1] + 0.3)
        draw.text(
            c,
            f"{room.type} #{room.id}",
            fill=(255, 255, 255),
            font=room_font,
            anchor="mt",
            stroke_width=3,
            stroke_fill=(0, 0, 0),
        )
    for k, (position, yaw) in enumerate(views):
        p = np.array(px(float(position[0]), float(position[2])))
        tip = p + 0.6 * ppm * np.array([-np.sin(yaw), -np.cos(yaw)])
        draw.line([*p, *tip], fill=(220, 30, 30), width=3)
        draw.ellipse([*(p - 6), *(p + 6)], fill=(220, 30, 30))
        draw.text(
            tuple(p + 9),
            f"view {k}",
            fill=(220, 30, 30),
            font=label_font,
            stroke_width=2,
            stroke_fill=(255, 255, 255),
        )
    return image


def write_preview(
    scene_glb: Path | str, out_dir: Path | str, config: PreviewConfig = PreviewConfig()
) -> list[Path]:
    """Write `{scene}_map.png` and, per view k, `{scene}_view{k}_{rgb,depth,semantic}.png`; returns the paths."""
    loaded = load_scene(scene_glb)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    floor_y = loaded.annotations.floor_y if loaded.annotations else None
    grid = NavGrid.from_scene(loaded.mesh, NavGridConfig(), floor_y=floor_y)
    rng = np.random.default_rng(config.seed)
    views = choose_views(grid, loaded.annotations, config.views, rng)
    written: list[Path] = []
    map_path = out / f"{loaded.scene_id}_map.png"
    _draw_map(loaded, grid, views, config.pixels_per_metre).save(map_path)
    written.append(map_path)
    renderer = Renderer(loaded.mesh, config.width, config.height, config.hfov_deg, depth_max=config.depth_max)
    try:
        for k, (position, yaw) in enumerate(views):
            frame = renderer.render(camera_pose(position, yaw, height=config.camera_height))
            assert frame.rgb is not None and frame.depth is not None and frame.semantic is not None
            images = {
                "rgb": Image.fromarray(frame.rgb, "RGB"),
                "depth": _depth_image(frame.depth, config.depth_shown_max),
                "semantic": _semantic_image(frame.semantic, loaded.annotations),
            }
            for name, image in images.items():
                path = out / f"{loaded.scene_id}_view{k}_{name}.png"
                image.save(path)
                written.append(path)
    finally:
        renderer.release()
    LOG.info("wrote %d preview images for %s to %s", len(written), loaded.scene_id, out)
    return written
