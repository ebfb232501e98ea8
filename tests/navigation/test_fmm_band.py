"""A distance field marched within a band reads as the full field everywhere (it completes itself on demand)."""

from __future__ import annotations

import numpy as np
import pytest

from tango.navigation import fmm_planner
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


def _wide_map(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 200 x 300 window with random boxes and a wall with one gap, the goal disk near its left end."""
    rng = np.random.default_rng(seed)
    obstacles = np.zeros((200, 300), bool)
    for _ in range(60):
        r, c = rng.integers(0, 190), rng.integers(0, 290)
        obstacles[r : r + rng.integers(2, 12), c : c + rng.integers(2, 12)] = True
    obstacles[20:180, 70:73] = True
    goal = disk(obstacles.shape, np.array([100, 40]), 4)
    obstacles &= ~goal
    return ~obstacles, goal, clearance_speed(obstacles, 10.0)


def test_a_march_that_stays_near_the_goal_freezes_the_cells_within_the_band_with_the_full_bits() -> None:
    for seed in range(4):
        traversable, goal, speed = _wide_map(seed)
        full = distance_field(traversable, goal, 3, 9, speed)
        for band in (12.0, 30.0, 55.0):
            banded = distance_field(traversable, goal, 3, 9, speed, band=band)
            assert not banded._whole  # it stayed near the goal: the next widening doubles the band
            marched = np.isfinite(banded.distance)
            assert np.array_equal(marched, full.distance <= band)
            assert np.array_equal(banded.distance[marched], full.distance[marched])


def test_a_march_that_leaves_the_goals_neighbourhood_is_completed_at_the_next_widening(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a neighbourhood smaller than the band (a negative margin) the march leaves it: the next widening
    marches to the end, and the values within the band are still the full field's."""
    monkeypatch.setattr(fmm_planner, "NEAR_GOAL_MARGIN_PX", -15)
    traversable, goal, speed = _wide_map(0)
    full = distance_field(traversable, goal, 3, 9, speed)
    banded = distance_field(traversable, goal, 3, 9, speed, band=40.0)
    assert banded._whole
    marched = np.isfinite(banded.distance)
    assert np.array_equal(marched, full.distance <= 40.0)
    assert np.array_equal(banded.distance[marched], full.distance[marched])
    beyond = np.argwhere(np.isfinite(full.distance) & (full.distance > 80.0))[0] + [3, 9]
    assert banded.at(beyond) == full.at(beyond)
    assert banded._march is None  # one widening, to the end (not to twice the band)


def test_reads_ever_farther_widen_the_band_until_the_field_is_complete() -> None:
    traversable, goal, speed = _wide_map(1)
    traversable[150:160, 250:260] = False
    traversable[153:157, 253:257] = True  # a pocket no path reaches
    full = distance_field(traversable, goal, 3, 9, speed)
    field = distance_field(traversable, goal, 3, 9, speed, band=10.0)
    finite = np.isfinite(full.distance)
    for target in (15.0, 35.0, 70.0, np.inf):
        # the last one is unreachable (the pocket): only the complete march can say so
        cell = np.argwhere(
            finite & (full.distance >= target) if np.isfinite(target) else ~finite & traversable
        )[0]
        pixel = cell + [3, 9]
        assert field.at(pixel) == full.at(pixel)
        assert np.array_equal(field.descend(pixel, 200), full.descend(pixel, 200))
    assert field._march is None and np.array_equal(field.distance, full.distance)
