"""The stand-in app: a district built from a city folder's seed, its tasks, the world, the camera and the map.

A city folder is what `python -m tango.urban generate` writes: `city.json` (seed and WGS84 origin of the
district) and `task/<id>.json` in UrbanGround's task format, like the app's own build folder.
"""

from __future__ import annotations

import base64
import io
import json
import logging
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw

from tango.urban.city.layout import LAYOUT_VERSION, generate_district
from tango.urban.city.mapstyle import font
from tango.urban.city.mapview import place_names, render_map
from tango.urban.city.raster import rasterize
from tango.urban.city.scene import build_scene
from tango.urban.server.actions import perform
from tango.urban.server.camera import FirstPersonCamera
from tango.urban.server.world import World
from tango.urban.taskfile import load_task_dir

log = logging.getLogger(__name__)
CITY_FILE = "city.json"
TASK_DIR = "task"


def read_city(folder: str | Path) -> dict[str, Any]:
    """city.json of a city folder (seed, origin, layout version); ValueError naming the problem."""
    path = Path(folder) / CITY_FILE
    try:
        city = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a readable city file ({error})") from None
    if city.get("layout") != LAYOUT_VERSION:
        raise ValueError(f"{path}: layout {city.get('layout')!r}, this code builds {LAYOUT_VERSION!r}")
    return dict(city)


def encode_image(rgb: np.ndarray, fmt: str = "jpg", quality: int = 85) -> bytes:
    if fmt == "png":
        buffer = io.BytesIO()
        Image.fromarray(rgb).save(buffer, format="PNG")
        return buffer.getvalue()
    ok, data = cv2.imencode(".jpg", np.ascontiguousarray(rgb[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def data_url(image: bytes, fmt: str = "jpg") -> str:
    mime = "image/png" if fmt == "png" else "image/jpeg"
    return f"data:{mime};base64,{base64.b64encode(image).decode('ascii')}"


class StandIn:
    """Everything the HTTP layer serves; not thread-safe (the server serialises requests)."""

    def __init__(
        self, seed: int = 0, origin: tuple[float, float] = (22.28, 114.16), task_dir: str | Path | None = None
    ) -> None:
        self.seed = seed
        self.district = generate_district(seed, origin)
        self.raster = rasterize(self.district)
        tasks = {task.id: task for task in load_task_dir(task_dir)[0]} if task_dir else {}
        self.world = World(self.district, self.raster, tasks, pedestrian_seed=seed)
        scene, signs = build_scene(self.district)
        self.camera = FirstPersonCamera(scene, signs)
        self.names = place_names(self.district)
        self.pedestrian_seed = seed
        self.last_label = ""
        log.info("stand-in city: seed %d, %d shops, %d tasks", seed, len(self.district.shops), len(tasks))

    @classmethod
    def from_folder(cls, folder: str | Path) -> StandIn:
        city = read_city(folder)
        task_dir = Path(folder) / TASK_DIR
        return cls(int(city["seed"]), tuple(city["origin"]), task_dir if task_dir.is_dir() else None)

    def frame(self, width: int = 640, height: int = 480) -> np.ndarray:
        """What /screenshot shows now: the first-person view, or the map in map mode."""
        world = self.world
        if world.mode == "map":
            camera = world.map_camera
            camera.width, camera.height = width, height
            closures = [line for _, line in world.active_closures()]
            markers = [(east, north) for _, east, north in world.task.markers] if world.task else []
            return render_map(
                self.raster,
                self.district,
                camera,
                (world.east, world.north, world.yaw),
                markers,
                closures,
                world.selection,
                self.names,
                world.route,
            )
        return self.camera.render(world, width, height)

    def screenshot(
        self,
        width: int = 640,
        height: int = 480,
        fmt: str = "jpg",
        quality: int = 85,
        include_ui: bool = False,
    ) -> bytes:
        """The frame as JPEG or PNG; `include_ui` adds the app's screen-space panel (mode, clock, weather and
        the last action's result) over the top of the frame, as `include_ui=1` captures the displayed window."""
        rgb = self.frame(width, height)
        if include_ui:
            rgb = self._with_ui(rgb)
        return encode_image(rgb, fmt, quality)

    def _with_ui(self, rgb: np.ndarray) -> np.ndarray:
        world = self.world
        image = Image.fromarray(rgb)
        draw = ImageDraw.Draw(image)
        lines = [f"{world.mode}  {world.clock_text}  {world.weather.replace('_', ' ')}", self.last_label]
        draw.rectangle((0, 0, image.width, 30), fill=(20, 20, 24))
        for row, text in enumerate(lines):
            draw.text((6, 2 + 14 * row), text[:100], fill=(240, 240, 240), font=font(11))
        return np.asarray(image)

    def act(
        self, action: Any, image: bool = False, interval: float = 0.0, max_frames: int = 60
    ) -> dict[str, Any]:
        """Apply an action; the reply has `ok`, the `action` label, the post-action `state` and images asked for."""
        frames: list[str] = []
        next_sample = [interval]

        def sample(elapsed: float) -> None:
            if interval > 0 and elapsed + 1e-9 >= next_sample[0] and len(frames) < max_frames:
                frames.append(data_url(self.screenshot()))
                next_sample[0] += interval

        label = perform(self.world, action, sample if interval > 0 else None, self.pedestrian_seed)
        self.last_label = label
        reply: dict[str, Any] = {"ok": True, "action": label, "state": self.world.state()}
        if image:
            reply["image"] = data_url(self.screenshot())
        if interval > 0:
            reply["interval"] = interval
            reply["images"] = frames
        return reply
