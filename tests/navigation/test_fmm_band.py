"""A distance field marched as far as reads need reads as the full field everywhere (it marches on on demand)."""

from __future__ import annotations

import numpy as np

from tango.navigation.fmm_planner import READ_MARGIN_PX, DistanceField, clearance_speed, disk, distance_field
from tango.navigation.marcher import TravelTimes


def _map(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 120 x 160 window with random box obstacles, the goal disk, and the clearance speed."""
    rng = np.random.default_rng(seed)
    obstacles = np.zeros((120, 160), bool)
    for _ in range(25):
        r, c = rng.integers(0, 110), rng.integers(0, 150)
        obstacles[r : r + rng.integers(2, 12), c : c + rng.integers(2, 12)] = True
    goal = disk(obstacles.shape, np.array([60, 20]), 4) & ~obstacles
    return ~obstacles, goal, clearance_speed(obstacles, 10.0)


def _full(
    traversable: np.ndarray, goal: np.ndarray, speed: np.ndarray, row0: int, col0: int
) -> DistanceField:
    """The reference: the field marched to the end at once."""
    return DistanceField(row0, col0, TravelTimes(traversable | goal, goal, speed).march(0.0))


def test_a_read_marches_to_the_cell_and_past_its_time_with_the_full_fields_bits() -> None:
    for seed in range(4):
        traversable, goal, speed = _map(seed)
        full = _full(traversable, goal, speed, 5, 7)
        lazy = distance_field(traversable, goal, 5, 7, speed)
        around_goal = disk(goal.shape, np.array([60, 20]), 6)
        assert np.all(np.isinf(lazy.distance[~around_goal]))  # nothing marched past the goal's edge yet
        cell = np.argwhere(np.isfinite(full.distance) & (full.distance > 30.0))[0]
        value = lazy.at(cell + [5, 7])
        assert value == full.distance[tuple(cell)]
        marched = np.isfinite(lazy.distance)
        assert 0 < marched.sum() < np.isfinite(full.distance).sum()
        assert np.array_equal(lazy.distance[marched], full.distance[marched])
        assert np.all(marched[full.distance <= value + READ_MARGIN_PX])


def test_descents_and_reads_anywhere_equal_the_full_fields() -> None:
    for seed in range(4):
        traversable, goal, speed = _map(seed)
        full = _full(traversable, goal, speed, 5, 7)
        lazy = distance_field(traversable, goal, 5, 7, speed)
        rng = np.random.default_rng(seed)
        for _ in range(30):
            pixel = np.array([rng.integers(0, 120), rng.integers(0, 160)]) + [5, 7]
            assert lazy.at(pixel) == full.at(pixel)
            assert np.array_equal(lazy.descend(pixel, 80), full.descend(pixel, 80))


def test_a_descent_from_a_cell_frozen_near_the_march_front_marches_past_it_first() -> None:
    traversable, goal, speed = _map(2)
    full = _full(traversable, goal, speed, 0, 0)
    lazy = distance_field(traversable, goal, 0, 0, speed)
    near = np.argwhere(np.isfinite(full.distance) & (full.distance > 20.0))[0]
    lazy.at(near)
    front = np.nanmax(np.where(np.isfinite(lazy.distance), lazy.distance, np.nan))
    edge = np.argwhere(lazy.distance == front)[0]  # frozen, but within READ_MARGIN_PX of the front
    assert np.array_equal(lazy.descend(edge, 100), full.descend(edge, 100))
    assert np.nanmax(np.where(np.isfinite(lazy.distance), lazy.distance, np.nan)) > front + READ_MARGIN_PX / 2


def test_reading_an_unreachable_cell_completes_the_field() -> None:
    traversable, goal, speed = _map(1)
    traversable[90:100, 130:140] = False
    traversable[93:97, 133:137] = True  # a pocket no path reaches
    full = _full(traversable, goal, speed, 3, 9)
    lazy = distance_field(traversable, goal, 3, 9, speed)
    assert lazy.at(np.array([95 + 3, 135 + 9])) == np.inf
    assert lazy._times is None and np.array_equal(lazy.distance, full.distance)
    assert lazy.at(np.array([-1, 0])) == np.inf  # outside the window


def test_a_field_without_goal_cells_reads_inf_everywhere() -> None:
    traversable, _, speed = _map(0)
    field = distance_field(traversable, np.zeros_like(traversable), 0, 0, speed)
    assert field.at(np.array([60, 80])) == np.inf and np.all(np.isinf(field.distance))
