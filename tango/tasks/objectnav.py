"""HM3D ObjectNav (habitat-lab ObjectNav-v1): episode loading.

`load_episodes` reads `{split}.json.gz` and its `content/{scene}.json.gz` files, filling each episode's goals
from goals_by_category (FORMATS.md).
"""

from __future__ import annotations

import os

from tango.tasks.episodes import NavEpisode, load_nav_episodes

ObjectNavEpisode = NavEpisode


def load_episodes(path: str | os.PathLike[str]) -> list[ObjectNavEpisode]:
    """Episodes of one ObjectNav-v1 split: `path` is the split file (or its directory)."""
    return load_nav_episodes(path)
