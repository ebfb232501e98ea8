"""The exact McNemar test of two paired success rates (McNemar 1947; the exact form is a binomial test).

Only discordant pairs carry information: b units succeeded under A alone, c under B alone. Under the null
hypothesis that both are equally likely to succeed, b is Binomial(b + c, 1/2); the two-sided p-value is
min(1, 2 * P(X <= min(b, c))). Computed in exact integer arithmetic, so it holds for any number of pairs.
"""

from __future__ import annotations

from math import comb


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (success under A only, under B only);
    1.0 when there is no discordant pair."""
    if only_a < 0 or only_b < 0:
        raise ValueError(f"discordant counts must be non-negative, got {only_a}, {only_b}")
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(comb(n, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**n)
