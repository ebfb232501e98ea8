"""The `sim` config schema (registered in tango/config_schema.py; presets in configs/sim/ extend it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BACKENDS = ("embedded", "habitat", "urbanground")


@dataclass
class EmbeddedSimConfig:
    """Camera, motion and navigability settings; defaults follow VLFM's HM3D ObjectNav setup.

    backend "embedded" runs TangoSim-v0; "habitat" runs habitat-sim's Sim-v0 (needs habitat-sim and HM3D), where
    scene_dataset_config names HM3D's scene dataset file and the navgrid_* settings are unused. For task=urban,
    `url` is the UrbanGround app's API (empty: tango starts its stand-in city) and `token` its bearer token; one
    app serves one worker, so a parallel run names one app per worker in `urls` instead.
    `sensor_preset` names the configs/sensors preset the camera settings came from (results record it).
    """

    backend: str = "embedded"
    sensor_preset: str = "fast"
    width: int = 256
    height: int = 256
    hfov: float = 79.0
    camera_height: float = 0.88
    sensors: list[str] = field(default_factory=lambda: ["rgb", "depth", "semantic"])
    depth_min: float = 0.5
    depth_max: float = 5.0
    normalize_depth: bool = False
    forward_step: float = 0.25
    turn_angle: float = 30.0
    tilt_angle: float = 30.0
    agent_radius: float = 0.18
    agent_height: float = 0.88
    allow_sliding: bool = False
    navgrid_resolution: float = 0.05
    navgrid_obstacle_height: float = 1.5
    scene_dataset_config: str = ""
    url: str = ""
    urls: list[str] = field(default_factory=list)
    token: str = ""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"sim.backend must be one of {BACKENDS}, got {self.backend!r}")
        unknown = sorted(set(self.sensors) - {"rgb", "depth", "semantic"})
        if unknown:
            raise ValueError(f"sim.sensors has unknown sensor(s) {unknown}; known: rgb, depth, semantic")


def sensor_record(sim: EmbeddedSimConfig) -> dict[str, Any]:
    """The camera a Habitat run used, as results record it: the preset's name and the values that ran."""
    return {
        "preset": sim.sensor_preset,
        "width": sim.width,
        "height": sim.height,
        "hfov": sim.hfov,
        "camera_height": sim.camera_height,
    }
