"""Percentile-bootstrap 95% intervals of means: over independent units (episodes), over clusters (subtasks
pooled within episodes, resampled by episode) and of paired differences (two runs on the same episodes).

The percentile bootstrap (Efron & Tibshirani 1993, ch. 13): draw `RESAMPLES` samples of the units with
replacement, take the statistic of each and report its 2.5th and 97.5th percentiles (numpy's default linear
interpolation). The generator is seeded (`SEED`), so a run's summary is reproducible to the last digit, and
every statistic over the same number of units sees the same resamples. With 10,000 resamples the Monte Carlo
error of a percentile is well under the third decimal for the sample sizes tango runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

RESAMPLES = 10_000
SEED = 0
CONFIDENCE = 0.95
CHUNK_CELLS = 2_000_000
"""Resample weights held at once (bounds the memory of a bootstrap over many units)."""

Interval = tuple[float, float]


def _weights(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The resamples as weights, shape (k, n): how often each unit was drawn, in chunks from one seeded
    generator (a resample's statistic is then a matrix product, for every column at once)."""
    rng = np.random.default_rng(seed)
    rows = max(1, CHUNK_CELLS // max(n, 1))
    done = 0
    while done < resamples:
        k = min(rows, resamples - done)
        drawn = rng.integers(0, n, size=(k, n)) + n * np.arange(k)[:, None]
        yield np.bincount(drawn.ravel(), minlength=k * n).reshape(k, n).astype(np.float64)
        done += k


def _percentiles(statistics: np.ndarray, confidence: float) -> Interval | None:
    finite = statistics[np.isfinite(statistics)]
    if finite.size == 0:
        return None
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(finite, [tail, 1.0 - tail])
    return float(lo), float(hi)


def ratio_cis(
    sums: Sequence[Sequence[float]] | np.ndarray,
    counts: Sequence[Sequence[float]] | np.ndarray,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
) -> list[Interval | None]:
    """For each column j, the interval of sum(sums[:, j]) / sum(counts[:, j]) with the rows (the independent
    units: episodes) resampled. A row holds a unit's total and number of values: (value, 1) for a plain mean,
    (0, 0) where the unit lacks the metric, (sum, count) over a cluster's values (an episode's subtasks).
    Resamples that draw no value of a column are left out of its percentiles; None for a column without values.
    Every column sees the same resamples."""
    totals = np.asarray(sums, dtype=np.float64)
    sizes = np.asarray(counts, dtype=np.float64)
    if totals.shape != sizes.shape:
        raise ValueError(f"sums and counts differ in shape: {totals.shape} vs {sizes.shape}")
    if totals.ndim == 1:
        totals, sizes = totals[:, None], sizes[:, None]
    n, columns = totals.shape
    if n == 0:
        return [None] * columns
    statistics = []
    for weights in _weights(n, resamples, seed):
        drawn = weights @ sizes
        with np.errstate(invalid="ignore", divide="ignore"):
            statistics.append(
                np.where(drawn > 0, (weights @ totals) / np.where(drawn > 0, drawn, 1.0), np.nan)
            )
    stacked = np.concatenate(statistics)
    return [
        _percentiles(stacked[:, j], confidence) if sizes[:, j].sum() > 0 else None for j in range(columns)
    ]


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
    return ratio_cis(data, np.ones_like(data), resamples, seed, confidence)[0]


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
    return ratio_cis(totals, sizes, resamples, seed, confidence)[0]


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
