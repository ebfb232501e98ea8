"""Percentile-bootstrap 95% intervals of means: over independent units (episodes), over clusters (subtasks
pooled within episodes, resampled by episode) and of paired differences (two runs on the same episodes).

The percentile bootstrap (Efron & Tibshirani 1993, ch. 13): draw `RESAMPLES` samples of the units with
replacement, take the statistic of each and report its 2.5th and 97.5th percentiles (numpy's default linear
interpolation). The generator is seeded (`SEED`), so a run's summary is reproducible to the last digit, and
every statistic over the same number of units sees the same resamples. With 10,000 resamples the Monte Carlo
error of a percentile is well under the third decimal for the sample sizes tango runs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

RESAMPLES = 10_000
SEED = 0
CONFIDENCE = 0.95
CHUNK_CELLS = 2_000_000
"""Resampled indices drawn at once (bounds the memory of a bootstrap over many units)."""

Interval = tuple[float, float]


def _index_chunks(n: int, resamples: int, seed: int) -> list[np.ndarray]:
    """The resamples as index arrays of shape (k, n), drawn in chunks from one seeded generator."""
    rng = np.random.default_rng(seed)
    rows = max(1, CHUNK_CELLS // max(n, 1))
    chunks = []
    done = 0
    while done < resamples:
        k = min(rows, resamples - done)
        chunks.append(rng.integers(0, n, size=(k, n)))
        done += k
    return chunks


def _percentiles(statistics: np.ndarray, confidence: float) -> Interval | None:
    finite = statistics[np.isfinite(statistics)]
    if finite.size == 0:
        return None
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(finite, [tail, 1.0 - tail])
    return float(lo), float(hi)


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
) -> Interval | None:
    """The percentile-bootstrap interval of the mean of `values` (one value per independent unit); None for no
    values. One value gives the degenerate interval [v, v]."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return None
    means = np.concatenate([data[idx].mean(axis=1) for idx in _index_chunks(data.size, resamples, seed)])
    return _percentiles(means, confidence)


def cluster_bootstrap_ci(
    sums: Sequence[float] | np.ndarray,
    counts: Sequence[float] | np.ndarray,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
) -> Interval | None:
    """The interval of a pooled mean sum(sums) / sum(counts) when the units pooled come in clusters (GOAT's
    subtasks within episodes): clusters are resampled whole, as the subtasks of one episode are not
    independent. `sums[i]` and `counts[i]` are cluster i's total and number of units; a cluster may have
    none (count 0). Resamples that draw no unit at all are left out; None when there is no unit."""
    totals = np.asarray(sums, dtype=np.float64)
    sizes = np.asarray(counts, dtype=np.float64)
    if totals.shape != sizes.shape:
        raise ValueError(f"sums and counts differ in length: {totals.shape} vs {sizes.shape}")
    if totals.size == 0 or sizes.sum() <= 0:
        return None
    pooled = []
    for idx in _index_chunks(totals.size, resamples, seed):
        drawn = sizes[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            pooled.append(np.where(drawn > 0, totals[idx].sum(axis=1) / np.maximum(drawn, 1), np.nan))
    return _percentiles(np.concatenate(pooled), confidence)


def paired_bootstrap_ci(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
) -> Interval | None:
    """The interval of mean(b - a) for paired values (the same units measured twice): the units are
    resampled, each keeping its pair, which is the bootstrap of the per-unit differences."""
    first = np.asarray(a, dtype=np.float64)
    second = np.asarray(b, dtype=np.float64)
    if first.shape != second.shape:
        raise ValueError(f"paired samples differ in length: {first.shape} vs {second.shape}")
    return bootstrap_ci(second - first, resamples, seed, confidence)
