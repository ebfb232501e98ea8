"""GraphNav maze navigation (tango.benchmarks.graphnav), registered: its `task` section names the plugin and
its settings live in the top-level `graphnav` section."""

from __future__ import annotations

from dataclasses import dataclass

from tango.benchmarks.graphnav.config import GraphNavConfig
from tango.harness.registry import register_task


@dataclass
class GraphNavTaskConfig:
    """configs/task/graphnav.yaml `task` section."""

    name: str = "graphnav"
    plugin: str = "tango.benchmarks.graphnav.runner:GraphNavTask"


register_task("graphnav", GraphNavTaskConfig, sections={"graphnav": GraphNavConfig})
