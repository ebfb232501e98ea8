"""The bootstrap intervals and the exact McNemar test, on samples whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from tango.stats import bootstrap_ci, cluster_bootstrap_ci, mcnemar_exact, paired_bootstrap_ci


def test_interval_contains_the_mean_and_shrinks_with_n() -> None:
    rng = np.random.default_rng(7)
    widths = []
    for n in (20, 80, 320):
        values = (rng.random(n) < 0.6).astype(float)
        lo, hi = bootstrap_ci(values)
        assert lo <= values.mean() <= hi
        widths.append(hi - lo)
    assert widths[0] > widths[1] > widths[2]
    # the width of a proportion's interval is close to 2 * 1.96 * sqrt(p(1-p)/n) at n = 320
    assert widths[2] == pytest.approx(2 * 1.96 * np.sqrt(0.24 / 320), rel=0.15)


def test_interval_is_reproducible_and_degenerate_cases_are_exact() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0]
    assert bootstrap_ci(values) == bootstrap_ci(values)
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)
    assert bootstrap_ci([0.25]) == (0.25, 0.25)
    assert bootstrap_ci([]) is None


def test_interval_of_two_values_spans_their_range() -> None:
    # means of resamples of {0, 1} with n = 2 are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4
    assert bootstrap_ci([0.0, 1.0]) == (0.0, 1.0)


def test_chunked_draws_give_the_same_interval_as_one_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    from tango.stats import intervals

    values = np.linspace(0.0, 1.0, 50)
    whole = bootstrap_ci(values, resamples=1000)
    monkeypatch.setattr(intervals, "CHUNK_CELLS", 50 * 7)
    chunked = bootstrap_ci(values, resamples=1000)
    # one generator, drawn in pieces of 7 resamples: the same stream of indices
    assert chunked == pytest.approx(whole)


def test_cluster_interval_is_wider_than_pretending_units_are_independent() -> None:
    # 40 episodes of 5 subtasks each, all succeeded or all failed: in effect 40 units, not 200
    outcomes = np.repeat([1.0] * 20 + [0.0] * 20, 5)
    independent = bootstrap_ci(outcomes)
    clustered = cluster_bootstrap_ci([5.0] * 20 + [0.0] * 20, [5] * 40)
    assert clustered is not None and independent is not None
    assert clustered[0] <= 0.5 <= clustered[1]
    assert clustered[1] - clustered[0] > 1.8 * (independent[1] - independent[0])


def test_cluster_interval_ignores_empty_clusters_and_needs_a_unit() -> None:
    assert cluster_bootstrap_ci([0.0, 0.0], [0, 0]) is None
    assert cluster_bootstrap_ci([2.0, 0.0], [2, 0]) == (1.0, 1.0)
    with pytest.raises(ValueError):
        cluster_bootstrap_ci([1.0], [1, 2])


def test_paired_interval_is_the_interval_of_the_differences() -> None:
    a = [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]
    b = [1.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    assert paired_bootstrap_ci(a, b) == bootstrap_ci(np.subtract(b, a))
    # B never worse than A: the interval cannot reach below zero
    lo, hi = paired_bootstrap_ci(a, b)
    assert 0.0 <= lo <= 4 / 6 <= hi <= 1.0


def test_pairing_narrows_the_interval_of_correlated_runs() -> None:
    rng = np.random.default_rng(3)
    difficulty = rng.random(200)
    a = (difficulty < 0.5).astype(float)
    b = (difficulty < 0.55).astype(float)  # B solves everything A solves, and a few more
    lo, hi = paired_bootstrap_ci(a, b)
    unpaired_a = bootstrap_ci(a)
    assert lo > 0.0
    assert unpaired_a is not None
    assert hi - lo < (unpaired_a[1] - unpaired_a[0]) / 2


@pytest.mark.parametrize(("only_a", "only_b", "expected"), [
    (0, 0, 1.0),
    (0, 5, 2 / 32),            # 2 * P(X <= 0), X ~ Bin(5, 1/2)
    (1, 9, 2 * 11 / 1024),     # 2 * (1 + 10) / 2^10
    (3, 3, 1.0),               # capped at 1
    (2, 8, 2 * 56 / 1024),     # 2 * (1 + 10 + 45) / 2^10
])  # fmt: skip
def test_mcnemar_by_hand(only_a: int, only_b: int, expected: float) -> None:
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected)
    assert mcnemar_exact(only_b, only_a) == pytest.approx(expected)


@pytest.mark.parametrize(("only_a", "only_b"), [(4, 17), (30, 45), (120, 80), (600, 650)])
def test_mcnemar_matches_scipy_binomial_test(only_a: int, only_b: int) -> None:
    expected = binomtest(only_a, only_a + only_b, 0.5, alternative="two-sided").pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-9)


def test_mcnemar_refuses_negative_counts() -> None:
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 3)
