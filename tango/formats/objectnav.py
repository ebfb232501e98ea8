"""HM3D ObjectNav (habitat-lab ObjectNav-v1, and HM3D's v2 files of the same shape): reading a split.

`read_episodes` reads `{split}.json.gz` and its `content/{scene}.json.gz` files, filling each episode's goals
from goals_by_category (FORMATS.md), and returns the good episodes with a named problem per malformed one;
`load_episodes` refuses the whole split at the first malformed episode. The records and their writers are
tango.formats.nav_episodes'.
"""

from __future__ import annotations

import os

from tango.formats.fields import Loaded
from tango.formats.nav_episodes import NavEpisode, read_nav_episodes

ObjectNavEpisode = NavEpisode


def read_episodes(path: str | os.PathLike[str]) -> Loaded[ObjectNavEpisode]:
    """Episodes of one ObjectNav split (the split file or its directory), with per-episode problems."""
    return read_nav_episodes(path)


def load_episodes(path: str | os.PathLike[str]) -> list[ObjectNavEpisode]:
    """Episodes of one ObjectNav split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()
