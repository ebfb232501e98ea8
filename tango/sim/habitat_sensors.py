"""TangoSim's cameras as habitat-lab sensors: RGB, depth and semantic frames read from the simulator by uuid.

Sensors with the same resolution, field of view and mount share one `Camera` (one renderer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import moderngl
import numpy as np
import trimesh

from tango.habitat_compat import ensure_habitat_importable

ensure_habitat_importable()

from gym import spaces
from habitat.core.simulator import DepthSensor, RGBSensor, SemanticSensor, Sensor

from tango.sim.render import Renderer


class TangoSimError(RuntimeError):
    """The simulator cannot do what was asked (unknown action, unsupported sensor, no scene)."""


def sensor_kind(sensor_config: Any) -> str:
    kind = str(sensor_config.type)
    for name, marker in (("rgb", "RGB"), ("depth", "Depth"), ("semantic", "Semantic")):
        if marker in kind and "Equirectangular" not in kind and "Fisheye" not in kind:
            return name
    raise TangoSimError(f"TangoSim supports pinhole RGB, depth and semantic sensors, not {kind!r}")


def sensor_uuid(sensor_config: Any) -> str:
    """The observation key: the config's uuid when it has one, else habitat-sim's rgb / depth / semantic."""
    return str(sensor_config.uuid) if "uuid" in sensor_config else sensor_kind(sensor_config)


class CameraSensorMixin:
    """A habitat-lab sensor that reads its frame from the simulator's per-step dict by uuid."""

    config: Any
    uuid: str

    def _get_uuid(self, *args: Any, **kwargs: Any) -> str:
        return sensor_uuid(self.config)

    def get_observation(self, sim_obs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        return sim_obs[self.uuid]


class TangoRGBSensor(CameraSensorMixin, RGBSensor):
    """RGB uint8 (H, W, 3)."""

    def __init__(self, config: Any) -> None:
        self.config = config
        super().__init__(config=config)

    def _get_observation_space(self, *args: Any, **kwargs: Any) -> spaces.Box:
        return spaces.Box(0, 255, (self.config.height, self.config.width, 3), np.uint8)


class TangoDepthSensor(CameraSensorMixin, DepthSensor):
    """Depth float32 (H, W, 1): metres clipped into [min_depth, max_depth], or that range mapped to [0, 1]."""

    def __init__(self, config: Any) -> None:
        self.config = config
        super().__init__(config=config)

    def _get_observation_space(self, *args: Any, **kwargs: Any) -> spaces.Box:
        low, high = (
            (0.0, 1.0) if self.config.normalize_depth else (self.config.min_depth, self.config.max_depth)
        )
        return spaces.Box(low, high, (self.config.height, self.config.width, 1), np.float32)


class TangoSemanticSensor(CameraSensorMixin, SemanticSensor):
    """Instance ids int32 (H, W, 1); 0 is background, other values are annotation object ids."""

    def __init__(self, config: Any) -> None:
        self.config = config
        super().__init__(config=config)

    def _get_observation_space(self, *args: Any, **kwargs: Any) -> spaces.Box:
        return spaces.Box(0, np.iinfo(np.int32).max, (self.config.height, self.config.width, 1), np.int32)


SENSOR_CLASSES: dict[str, type[Sensor]] = {
    "rgb": TangoRGBSensor,
    "depth": TangoDepthSensor,
    "semantic": TangoSemanticSensor,
}


@dataclass
class Camera:
    """One renderer shared by the sensors with the same resolution, field of view and mount."""

    renderer: Renderer
    offset: np.ndarray
    mount_pitch: float  # radians, habitat sensor orientation[0]
    uuids: dict[str, str]
    normalize_depth: bool


def build_cameras(
    sensor_configs: Any, mesh: trimesh.Scene, ctx: moderngl.Context
) -> tuple[list[Camera], list[Sensor]]:
    """One camera per group of sensors with the same resolution, field of view and mount (a second sensor of
    the same kind on the same mount gets its own), and the habitat-lab sensors reading from them."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for sensor_config in sensor_configs.values():
        kind = sensor_kind(sensor_config)
        key = (
            int(sensor_config.width),
            int(sensor_config.height),
            float(sensor_config.hfov),
            tuple(float(v) for v in sensor_config.position),
            tuple(float(v) for v in sensor_config.orientation),
        )
        index = 0
        while kind in groups.get((*key, index), {}):
            index += 1  # a second sensor of the same kind on the same mount gets its own camera
        groups.setdefault((*key, index), {})[kind] = sensor_config
    cameras: list[Camera] = []
    sensors: list[Sensor] = []
    for (width, height, hfov, position, orientation, _), members in groups.items():
        depth = members.get("depth")
        near, far = (float(depth.min_depth), float(depth.max_depth)) if depth is not None else (0.0, 1000.0)
        sensors.extend(SENSOR_CLASSES[kind](config) for kind, config in members.items())
        renderer = Renderer(
            mesh,
            width,
            height,
            hfov,
            near,
            far,
            sensors=tuple(members),
            ctx=ctx,
            depth_out_of_range="clip",
        )
        uuids = {kind: sensor_uuid(config) for kind, config in members.items()}
        normalize = bool(depth.get("normalize_depth", False)) if depth is not None else False
        offset = np.asarray(position, dtype=np.float64)
        cameras.append(Camera(renderer, offset, orientation[0], uuids, normalize))
    return cameras, sensors
