"""A distance field marched within a band reads as the full field everywhere (it completes itself on demand)."""

from __future__ import annotations

import numpy as np

from tango.navigation.fmm_planner import clearance_speed, disk, distance_field


def _map(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 120 x 160 window with random box obstacles, the goal disk, and the clearance speed."""
    rng = np.random.default_rng(seed)
    obstacles = np.zeros((120, 160), bool)
    for _ in range(25):
        r, c = rng.integers(0, 110), rng.integers(0, 150)
        obstacles[r : r + rng.integers(2, 12), c : c + rng.integers(2, 12)] = True
    goal = disk(obstacles.shape, np.array([60, 20]), 4) & ~obstacles
    return ~obstacles, goal, clearance_speed(obstacles, 10.0)


def test_values_within_the_band_are_the_full_fields_bits() -> None:
    for seed in range(4):
        traversable, goal, speed = _map(seed)
        full = distance_field(traversable, goal, 5, 7, speed)
        banded = distance_field(traversable, goal, 5, 7, speed, band=40.0)
        marched = np.isfinite(banded.distance)
        assert 0 < marched.sum() < np.isfinite(full.distance).sum()
        assert np.array_equal(banded.distance[marched], full.distance[marched])


def test_reading_beyond_the_band_completes_the_field() -> None:
    traversable, goal, speed = _map(1)
    full = distance_field(traversable, goal, 5, 7, speed)
    near = distance_field(traversable, goal, 5, 7, speed, band=40.0)
    far_cell = np.unravel_index(
        np.nanargmax(np.where(np.isfinite(full.distance), full.distance, np.nan)), (120, 160)
    )
    start = np.array(far_cell) + [5, 7]
    near_start = np.array([60, 40]) + [5, 7]
    assert np.array_equal(near.descend(near_start, 60), full.descend(near_start, 60))
    assert near.at(start) == full.at(start) > 40.0
    assert np.array_equal(near.distance, full.distance)
    far = distance_field(traversable, goal, 5, 7, speed, band=40.0)
    assert np.array_equal(far.descend(start, 300), full.descend(start, 300))
