"""HM3D-OVON's episode flow: ObjectNav's, on OVON files (open-vocabulary category names).

The episodes are read by tango.formats.ovon.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tango.formats.fields import Loaded
from tango.formats.nav_episodes import NavEpisode
from tango.formats.ovon import read_episodes
from tango.harness.registry import register_task
from tango.tasks.flow import NavTaskConfig
from tango.tasks.habitat.plugin import HabitatTask
from tango.tasks.objectnav import ObjectGoalFlow


@dataclass
class OvonTaskConfig(NavTaskConfig):
    """configs/task/ovon.yaml."""

    name: str = "ovon"
    plugin: str = "tango.tasks.ovon:OvonTask"
    success_distance: float = 0.25


class OvonFlow(ObjectGoalFlow):
    """ObjectNav's flow on OVON episodes (open-vocabulary category names)."""

    schema = OvonTaskConfig
    data_file = "ovon/{split}/{split}.json.gz"

    def read(self, path: Path) -> Loaded[NavEpisode]:
        return read_episodes(path)


class OvonTask(HabitatTask):
    """The HM3D-OVON harness plugin."""

    flow = OvonFlow


register_task("ovon", OvonTaskConfig)
