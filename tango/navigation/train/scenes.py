"""The apartments training and validation run on: generated once per seed into the cache, reused after."""

from __future__ import annotations

import logging
from pathlib import Path

from tango.cache import cache_root
from tango.scenes.datasets.generate import apartment_scene_writer, generator_version, scene_seed
from tango.sim.scene import annotation_path_for

LOG = logging.getLogger(__name__)
SCENES_FOLDER = "pointnav-scenes"


def apartment_scenes(count: int, seed: int, cache_dir: str | None = None) -> list[Path]:
    """GLB paths of `count` apartments of a dataset seed (scene i from `scene_seed(seed, i)`, as the synthetic
    datasets draw theirs), written under $TANGO_CACHE/pointnav-scenes/<generator version>/seed<seed>/."""
    folder = cache_root(cache_dir) / SCENES_FOLDER / generator_version() / f"seed{seed}"
    paths = []
    for index in range(count):
        scene_id = f"apt_{index:03d}"
        path = folder / f"{scene_id}.glb"
        if not annotation_path_for(path).is_file():  # written after the GLB
            folder.mkdir(parents=True, exist_ok=True)
            LOG.info("generating apartment %s of seed %d", scene_id, seed)
            apartment_scene_writer(folder, scene_id, scene_seed(seed, index))
        paths.append(path)
    return paths
