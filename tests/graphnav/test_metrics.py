"""GraphNav metrics against values computed by hand, including failures and revisits (the published reading:
a revisited ideal edge counts once in PFS's numerator and every time in its denominator)."""

from __future__ import annotations

import math

import pytest

from tango.benchmarks.graphnav.metrics import (
    directional_progress_score,
    episode_metrics,
    failure_metrics,
    path_following_score,
    success_weighted_path_length,
)

A, B, C, D = (0, 0), (0, 2), (2, 2), (2, 0)


def test_pfs_exact_path_is_one_and_failure_is_zero() -> None:
    assert path_following_score([A, B, C], [A, B, C], success=True) == 1.0
    assert path_following_score([A, B], [A, B, C], success=False) == 0.0


def test_pfs_counts_a_revisited_ideal_edge_once() -> None:
    # A->B, B->A (not ideal: reversed direction), A->B again, B->C: distinct ideal edges {A->B, B->C} = 2 of 4
    # moves. Counting A->B each time would give 3/4, rewarding the back-and-forth.
    assert path_following_score([A, B, A, B, C], [A, B, C], success=True) == pytest.approx(0.5)
    # A loop A->B->C->D->A then A->B->C: ideal edges A->B, B->C walked twice, 2 distinct of 6 moves.
    assert path_following_score([A, B, C, D, A, B, C], [A, B, C], success=True) == pytest.approx(2 / 6)
    # A detour through D: A->D, D->C are off the ideal path; 0 of 2.
    assert path_following_score([A, D, C], [A, B, C], success=True) == 0.0


def test_pfs_is_directed() -> None:
    assert path_following_score([C, B, A], [A, B, C], success=True) == 0.0


def test_spl_hand_values() -> None:
    assert success_weighted_path_length(3, 3, True) == 1.0
    assert success_weighted_path_length(5, 2, True) == pytest.approx(0.4)
    assert success_weighted_path_length(1, 2, False) == 0.0


def test_dps_hand_values() -> None:
    # Goal C=(2,2) from A: step A->B moves (0,2); to goal (2,2): cos 45 deg. Step B->C moves straight at it: 1.
    assert directional_progress_score([A, B, C], C) == pytest.approx((math.sqrt(0.5) + 1.0) / 2)
    # From B=(0,2) to A=(0,0) with goal D=(2,0): move (0,-2), to goal (2,-2): cos 45 deg.
    assert directional_progress_score([B, A], D) == pytest.approx(math.sqrt(0.5))
    # Straight away from the goal: cos 180 = -1.
    assert directional_progress_score([B, A], (0, 4)) == pytest.approx(-1.0)
    assert directional_progress_score([A], C) == 0.0  # no move: 0, as the published code scores it
    # A move that starts on the goal has no goal direction and is skipped, not counted as 0.
    assert directional_progress_score([C, B, C], C) == pytest.approx(1.0)


def test_episode_metrics_keys_per_task() -> None:
    repeated = episode_metrics("repeated", [A, B, A, B, C], [A, B, C], C, True, invalid_actions=2)
    assert repeated == {"success": 1.0, "num_steps": 4.0, "invalid_actions": 2.0, "pfs": 0.5}
    shortcut = episode_metrics("shortcut", [A, D, C], [A, B, C], C, False, invalid_actions=0)
    assert shortcut["success"] == 0.0 and shortcut["spl"] == 0.0 and "pfs" not in shortcut
    assert shortcut["dps"] == pytest.approx((math.sqrt(0.5) + 1.0) / 2)
    assert episode_metrics("shortcut", [A], [A, B], B, False, 0)["dps"] == 0.0
    assert failure_metrics("shortcut") == {
        "success": 0.0,
        "num_steps": 0.0,
        "invalid_actions": 0.0,
        "spl": 0.0,
        "dps": 0.0,
    }
    assert "dps" not in failure_metrics("reversed") and failure_metrics("reversed")["pfs"] == 0.0
