"""HM3D-OVON (open-vocabulary ObjectNav): reading a split.

Same layout as ObjectNav-v1. goals_by_category keys are the scene file's basename, "_", the category
("TEEsavR23oF.basis.glb_chair" for HM3D, "apt_000.glb_chair" for our synthetic scenes). As ovon's own dataset
class does, a goal's string object_id "..._{n}" becomes the number n, view points may carry a `radius`, and an
episode's `children_object_categories` add their goals to the episode's (its distance-to-goal measure counts
their view points). Splits: train, val_seen, val_seen_synonyms, val_unseen.
"""

from __future__ import annotations

import os
import re
from typing import Any

from tango.formats.fields import Loaded
from tango.formats.nav_episodes import NavEpisode, read_nav_episodes

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
