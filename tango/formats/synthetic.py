"""A tango synthetic dataset folder: the stamp that marks it complete, and where the default one is cached.

The generator (tango.scenes.datasets) writes the folder and its `dataset.json` stamp last; the task loaders
find the default dataset here without generating it (the entry point prepares it: tango.eval).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tango.cache import cache_root

FORMAT = "tango-synthetic/1"
STAMP_FILE = "dataset.json"
DEFAULT_NAME = "synthetic-v3"


def default_dataset_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder of the default synthetic dataset: `{cache root}/synthetic-v3` (tango.cache.cache_root)."""
    return cache_root(cache_dir) / DEFAULT_NAME


def read_stamp(root: Path) -> dict[str, Any] | None:
    """The dataset.json of a complete dataset folder, or None when absent or unreadable."""
    try:
        stamp = json.loads((root / STAMP_FILE).read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return stamp if isinstance(stamp, dict) and stamp.get("format") == FORMAT else None
