"""HM3D-OVON (open-vocabulary ObjectNav): episode loading and the episode flow (ObjectNav's, on OVON files).

Same layout as ObjectNav-v1. goals_by_category keys are the scene file's basename, "_", the category
("TEEsavR23oF.basis.glb_chair" for HM3D, "apt_000.glb_chair" for our synthetic scenes); goals carry
children_object_categories (FORMATS.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tango.tasks.episodes import NavEpisode, load_nav_episodes
from tango.tasks.flow import NavTaskConfig
from tango.tasks.habitat_runner import HabitatTask
from tango.tasks.objectnav import ObjectGoalFlow
from tango.tasks.registry import register_task

OVONEpisode = NavEpisode


def load_episodes(path: str | os.PathLike[str]) -> list[OVONEpisode]:
    """Episodes of one OVON split (train, val_seen, val_seen_synonyms, val_unseen): the split file or directory."""
    return load_nav_episodes(path)


# --- the OVON flow ----------------------------------------------------------------------------------------------


@dataclass
class OvonTaskConfig(NavTaskConfig):
    """configs/task/ovon.yaml."""

    name: str = "ovon"
    plugin: str = "tango.tasks.ovon:OvonTask"
    split: str = "val_unseen"


class OvonFlow(ObjectGoalFlow):
    """ObjectNav's flow on OVON episodes (open-vocabulary category names)."""

    schema = OvonTaskConfig
    data_file = "ovon/{split}/{split}.json.gz"

    def load(self, path: Path) -> Sequence[NavEpisode]:
        return load_episodes(path)


class OvonTask(HabitatTask):
    """The HM3D-OVON harness plugin."""

    flow = OvonFlow


register_task("ovon", OvonTaskConfig)
