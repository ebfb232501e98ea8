"""UrbanGround city tasks (tango.urban), registered: its `task` section names the plugin and the success
radius; its settings live in the top-level `urban` section."""

from __future__ import annotations

from dataclasses import dataclass

from tango.harness.registry import register_task
from tango.urban.config import UrbanConfig


@dataclass
class UrbanTaskConfig:
    """configs/task/urban.yaml `task` section; success_distance is UrbanGround's arrival radius (haversine)."""

    name: str = "urban"
    plugin: str = "tango.urban.runner:UrbanTaskPlugin"
    success_distance: float = 15.0


register_task("urban", UrbanTaskConfig, sections={"urban": UrbanConfig})
