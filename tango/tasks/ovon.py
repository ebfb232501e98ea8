"""HM3D-OVON (open-vocabulary ObjectNav): episode loading.

Same layout as ObjectNav-v1. goals_by_category keys are the scene file's basename, "_", the category
("TEEsavR23oF.basis.glb_chair" for HM3D, "apt_000.glb_chair" for our synthetic scenes); goals carry
children_object_categories (FORMATS.md).
"""

from __future__ import annotations

import os

from tango.tasks.episodes import NavEpisode, load_nav_episodes

OVONEpisode = NavEpisode


def load_episodes(path: str | os.PathLike[str]) -> list[OVONEpisode]:
    """Episodes of one OVON split (train, val_seen, val_seen_synonyms, val_unseen): the split file or directory."""
    return load_nav_episodes(path)
