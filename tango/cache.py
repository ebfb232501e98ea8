"""Where tango keeps what it computes once and reuses across runs (datasets, models, text embeddings)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The argument, else $TANGO_CACHE, else ~/.cache/tango."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("TANGO_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "tango"
