"""HM3D-OVON (open-vocabulary ObjectNav): episode loading and the episode flow (ObjectNav's, on OVON files).

Same layout as ObjectNav-v1. goals_by_category keys are the scene file's basename, "_", the category
("TEEsavR23oF.basis.glb_chair" for HM3D, "apt_000.glb_chair" for our synthetic scenes). As ovon's own dataset
class does, a goal's string object_id "..._{n}" becomes the number n, view points may carry a `radius`, and an
episode's `children_object_categories` add their goals to the episode's (its distance-to-goal measure counts
their view points). Splits: train, val_seen, val_seen_synonyms, val_unseen.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.harness.registry import register_task
from tango.tasks.episodes import NavEpisode, read_nav_episodes
from tango.tasks.fields import Loaded
from tango.tasks.flow import NavTaskConfig
from tango.tasks.habitat_runner import HabitatTask
from tango.tasks.objectnav import ObjectGoalFlow

OVONEpisode = NavEpisode
_TRAILING_NUMBER = re.compile(r"_(\d+)$")


def published_object_id(value: Any) -> int | str:
    """ovon's rule: "TEEsavR23oF.basis.glb_123"-style ids become 123; integers stay, other strings stay."""
    if isinstance(value, str):
        match = _TRAILING_NUMBER.search(value)
        return int(match.group(1)) if match else value
    return int(value)


def read_episodes(path: str | os.PathLike[str]) -> Loaded[OVONEpisode]:
    """Episodes of one OVON split (the split file or its directory), with per-episode problems."""
    return read_nav_episodes(path, published_object_id)


def load_episodes(path: str | os.PathLike[str]) -> list[OVONEpisode]:
    """Episodes of one OVON split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


# --- the OVON flow ----------------------------------------------------------------------------------------------


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
