"""How far a split's episodes start from their goals, against a published distribution.

`python -m tango.scenes ks SPLIT_PATH` prints the two-sample Kolmogorov-Smirnov distance between the split's
start-to-goal geodesic distances and the reference's (HM3D ObjectNav val_mini by default). It reads the files
as they are written (`{split}.json.gz` plus `content/*.json.gz`, episodes' `info.start_geodesic_distance`, else
HM3D's `info.geodesic_distance`), so it measures ours and the published files alike, and imports no task.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from tango.scenes.datasets.hm3d_reference import SOURCE_COMMIT, SOURCE_FILES, SOURCE_REPOSITORY
from tango.scenes.datasets.starts import reference_distances


def _read(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, dict):
        raise TypeError(f"{path}: not an episode file (top level is not an object)")
    return data


def split_start_distances(path: str | os.PathLike[str]) -> list[float]:
    """Every episode's start-to-goal geodesic distance in a split (its file or folder), content files included."""
    split = Path(path)
    split_file = split / f"{split.name}.json.gz" if split.is_dir() else split
    files = [split_file, *sorted((split_file.parent / "content").glob("*.json.gz"))]
    distances = []
    for file in files:
        for episode in _read(file).get("episodes", []):
            info = episode.get("info") or {}
            value = info.get("start_geodesic_distance", info.get("geodesic_distance"))
            if value is not None:
                distances.append(float(value))
    return distances


def ks_distance(sample: list[float], reference: np.ndarray) -> float:
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the two empirical CDFs."""
    return float(stats.ks_2samp(np.asarray(sample, dtype=np.float64), reference).statistic)


def start_distance_report(path: str | os.PathLike[str], reference: str) -> dict[str, Any]:
    """KS distance of a split's start distances to the named reference, with both samples' summaries."""
    sample = split_start_distances(path)
    if not sample:
        raise ValueError(f"{path}: no episode carries info.start_geodesic_distance or info.geodesic_distance")
    ref = reference_distances(reference)
    return {
        "split": str(path),
        "episodes": len(sample),
        "ks_distance": round(ks_distance(sample, ref), 4),
        "median_m": round(float(np.median(sample)), 3),
        "reference": reference,
        "reference_episodes": int(ref.size),
        "reference_median_m": round(float(np.median(ref)), 3),
        "reference_source": f"{SOURCE_REPOSITORY}@{SOURCE_COMMIT}: {', '.join(SOURCE_FILES)}",
    }
