"""Generic statistics for results: percentile-bootstrap intervals (over units, over clusters, paired) and the
exact McNemar test. No tango imports: the harness, the compare CLI and analyses all use these."""

from tango.stats.intervals import (
    CONFIDENCE,
    RESAMPLES,
    SEED,
    bootstrap_ci,
    cluster_bootstrap_ci,
    paired_bootstrap_ci,
    ratio_cis,
)
from tango.stats.mcnemar import mcnemar_exact

__all__ = [
    "CONFIDENCE",
    "RESAMPLES",
    "SEED",
    "bootstrap_ci",
    "cluster_bootstrap_ci",
    "mcnemar_exact",
    "paired_bootstrap_ci",
    "ratio_cis",
]
