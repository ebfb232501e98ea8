"""The default synthetic dataset: generated into a cache folder when the entry point first needs it, reused after.

The cache root is `cache_dir`, else `$TANGO_CACHE`, else `~/.cache/tango`; the dataset lives in
`{root}/synthetic-v3`: HM3D-sized homes (`apartment.HM3D_SIZED`), episode starts whose geodesic distances
follow HM3D ObjectNav val_mini's, open-vocabulary OVON goal names, and a val split (dev) beside a test split
(from other seeds; the one reported figures come from). It is reused when its dataset.json stamp matches the
default configuration and the generator code version (a hash of the sources that decide the content), and
regenerated (atomically, replacing the old folder only once the new one is complete) otherwise. A lock file beside it lets concurrent first uses
(e.g. several evaluation workers) generate it once. ObjectNav's episodes are drawn in the shared homes; the
`objectnav-homes` preset (ObjectNav in homes of its own) was tried for issue 22 and is not the default.
"""

from __future__ import annotations

import dataclasses
import fcntl
import logging
import os
import shutil
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tango.formats.synthetic import DEFAULT_NAME, default_dataset_root, read_stamp
from tango.scenes.apartment import HM3D_SIZED
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset, generator_version
from tango.scenes.datasets.goat import GoatConfig
from tango.scenes.datasets.objectnav import ObjectNavConfig
from tango.scenes.datasets.ovon import OVONConfig

LOG = logging.getLogger(__name__)

START_DISTANCES = "hm3d_objectnav_val_mini"
OBJECTNAV_MIN_RATIO = 1.05
"""HM3D ObjectNav's near-straight rejection threshold (ovon `generate_objectnav_episode_v2`, starts.py); OVON and
GOAT keep the synthetic-v3 starts (their files are unchanged)."""
DEFAULT_CONFIG = DatasetConfig(
    num_scenes=6,
    test_scenes=10,
    seed=0,
    apartment=HM3D_SIZED,
    objectnav=ObjectNavConfig(
        episodes_per_scene=6,
        start_distances=START_DISTANCES,
        geodesic_to_euclid_min_ratio=OBJECTNAV_MIN_RATIO,
    ),
    ovon=OVONConfig(episodes_per_scene=6, start_distances=START_DISTANCES, open_fraction=0.7),
    goat=GoatConfig(episodes_per_scene=2, start_distances=START_DISTANCES),
)
"""6 val scenes and 10 test scenes: ObjectNav and OVON 36 / 60 episodes, GOAT 12 / 20 (5-10 subtasks each)."""

ROOM_CHAIN_HOMES = dataclasses.replace(HM3D_SIZED, min_rooms=8, corridor_width=0.0)
"""HM3D_SIZED's upper range (8-12 rooms of ~20 m2, ~145-275 m2) without the full-length corridor: rooms open
onto each other (a spanning tree of doorways plus a few loops), so a search that goes the wrong way walks
through rooms, not past them. The homes the `objectnav-homes` preset gives ObjectNav alone."""

PRESETS: dict[str, DatasetConfig] = {
    DEFAULT_NAME: DEFAULT_CONFIG,
    "synthetic-v2": DatasetConfig(num_scenes=10, seed=0),
    "objectnav-homes": dataclasses.replace(
        DEFAULT_CONFIG,
        objectnav=dataclasses.replace(
            DEFAULT_CONFIG.objectnav, homes=ROOM_CHAIN_HOMES, val_homes=6, test_homes=10
        ),
    ),
}
"""Named dataset configurations for `python -m tango.scenes generate --preset`: the default; the previous
default (10 smaller apartments, one val split) so that questions and runs written against it can be rerun; and
a trial of issue 22 (BENCHMARKS, synthetic-v3): the default with ObjectNav's episodes drawn in 6 val and 10 test
homes of its own (`ROOM_CHAIN_HOMES`, 6 episodes each), every other benchmark's files unchanged. On val its
oracle scored 0.917, above the issue's 0.90, so it is not the default."""


def is_current(root: Path, config: DatasetConfig) -> bool:
    """True when `root` holds a complete dataset generated with `config` by the current generator code."""
    stamp = read_stamp(root)
    return (
        stamp is not None
        and stamp.get("config") == _jsonable(asdict(config))
        and stamp.get("generator_version") == generator_version()
    )


def ensure_default_dataset(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder of the default dataset, generating it first when it is missing or stale."""
    root = default_dataset_root(cache_dir)
    if is_current(root, DEFAULT_CONFIG):
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f".{DEFAULT_NAME}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one generator at a time; the others then find it current
        if not is_current(root, DEFAULT_CONFIG):
            _remove_leftovers(root)
            LOG.info("generating the default synthetic dataset into %s (once)", root)
            generate_dataset(root, DEFAULT_CONFIG, overwrite=True)
    return root


def prepare_default_dataset(config: Mapping[str, Any]) -> Path | None:
    """The default dataset, made current first, when a resolved run config's task reads it (its `task` section
    has a `data_path` key that is null: the Habitat benchmarks); None for any other task. The entry point calls
    this before the first episode; the task loaders only find the folder (tango.formats.synthetic)."""
    task = config.get("task") or {}
    if "data_path" not in task or task["data_path"]:
        return None
    return ensure_default_dataset()


def _remove_leftovers(root: Path) -> None:
    """Delete temporary folders of generations that were killed before they could clean up (lock held)."""
    for pattern in (f".{root.name}.partial-*", f".{root.name}.old-*"):
        for leftover in root.parent.glob(pattern):
            shutil.rmtree(leftover, ignore_errors=True)


def _jsonable(value: object) -> object:
    """The value as it reads back from JSON (tuples become lists)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
