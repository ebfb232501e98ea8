"""The compiled fast marcher gives scikit-fmm's travel times to the bit, for every band and when marched on."""

from __future__ import annotations

import numpy as np
import pytest
import skfmm

from tango.navigation.fmm_planner import clearance_speed, disk
from tango.navigation.marcher import TravelTimes


def skfmm_times(free: np.ndarray, goal: np.ndarray, speed: np.ndarray, band: float) -> np.ndarray:
    """The reference: scikit-fmm's second-order travel time from the goal cells' boundary through the free
    cells up to `band` (0: everywhere), inf where not reached, the goal cells at 0 (no boundary: all inf)."""
    phi = np.ma.MaskedArray(np.where(goal, -1.0, 1.0), ~free)
    try:
        times = np.ma.filled(skfmm.travel_time(phi, speed, dx=1.0, narrow=band).astype(float), np.inf)
    except ValueError:  # no zero contour
        times = np.full(free.shape, np.inf)
    times[goal] = 0.0
    return times


def _random_case(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random window: scattered and box obstacles, a goal disk (sometimes overlapping obstacles, sometimes at
    the border), and a clearance, unit, random or coarsely quantised speed (equal times: heap ties)."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(4, 70)), int(rng.integers(4, 70))
    obstacles = rng.random((height, width)) < rng.uniform(0.0, 0.4)
    for _ in range(int(rng.integers(0, 10))):
        r, c = rng.integers(0, height), rng.integers(0, width)
        obstacles[r : r + rng.integers(1, 10), c : c + rng.integers(1, 10)] = True
    centre = np.array([rng.integers(0, height), rng.integers(0, width)])
    goal = disk((height, width), centre, int(rng.integers(0, 6))).copy()
    if rng.random() < 0.3:
        goal &= ~obstacles
    kind = seed % 4
    if kind == 0:
        speed = clearance_speed(obstacles, float(rng.uniform(1.0, 12.0)))
    elif kind == 1:
        speed = np.ones((height, width))
    elif kind == 2:
        speed = rng.uniform(0.05, 1.0, (height, width))
    else:
        speed = np.round(rng.uniform(0.3, 1.0, (height, width)) * 4) / 4
    return ~obstacles | goal, goal, speed


@pytest.mark.parametrize("chunk", range(4))
def test_random_windows_march_to_scikit_fmms_bits_band_after_band(chunk: int) -> None:
    compared = 0
    for seed in range(chunk * 60, (chunk + 1) * 60):
        free, goal, speed = _random_case(seed)
        times = TravelTimes(free, goal, speed)
        bands = [*np.sort(np.random.default_rng(seed).uniform(0.5, 50.0, 3)), 0.0]
        for band in bands:  # the same marcher marched on to wider bands, then to the end
            assert np.array_equal(times.march(float(band)), skfmm_times(free, goal, speed, float(band)))
            compared += 1
    assert compared == 240


def test_a_fresh_march_to_a_band_equals_one_marched_on_to_it() -> None:
    free, goal, speed = _random_case(7)
    marched_on = TravelTimes(free, goal, speed)
    marched_on.march(5.0)
    assert np.array_equal(marched_on.march(20.0), TravelTimes(free, goal, speed).march(20.0))


def test_cells_cut_off_from_the_goal_stay_inf_and_goal_cells_read_zero() -> None:
    free = np.ones((30, 30), bool)
    free[10:20, 10] = free[10:20, 19] = free[10, 10:20] = free[19, 10:20] = False  # a closed ring
    goal = disk(free.shape, np.array([4, 4]), 2)
    times = TravelTimes(free, goal, np.ones(free.shape)).march(0.0)
    assert np.all(np.isinf(times[11:19, 11:19])) and np.all(times[goal] == 0.0)
    assert np.array_equal(times, skfmm_times(free, goal, np.ones(free.shape), 0.0))


def test_without_a_boundary_every_time_is_inf_but_the_goals() -> None:
    free = np.ones((8, 9), bool)
    whole = np.ones((8, 9), bool)
    assert np.all(TravelTimes(free, whole, np.ones((8, 9))).march(0.0) == 0.0)
    none = np.zeros((8, 9), bool)
    assert np.all(np.isinf(TravelTimes(free, none, np.ones((8, 9))).march(0.0)))


def test_marching_to_a_cell_stops_as_a_band_at_its_time_would_and_marches_on_to_the_same_bits() -> None:
    for seed in range(40):
        free, goal, speed = _random_case(seed)
        full = TravelTimes(free, goal, speed).march(0.0)
        reachable = np.argwhere(np.isfinite(full) & ~goal)
        if len(reachable) == 0:
            continue
        cell = reachable[len(reachable) // 2]
        times = TravelTimes(free, goal, speed)
        lazy = times.march_to(int(cell[0] * free.shape[1] + cell[1]), 3.0).copy()
        band = float(full[tuple(cell)]) + 3.0
        assert np.array_equal(lazy, TravelTimes(free, goal, speed).march(band))
        assert np.array_equal(times.march(0.0), full)
        assert not times.queued
