"""End to end on the embedded simulator (TangoSim-v0 through habitat-lab, procedural apartments, no sliding): the
FMM controller reaches random navigable point goals, and frontier exploration covers the apartments' navigable
area."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tango.navigation.actions import STOP
from tango.navigation.navigator import Navigator
from tests.navigation.sim_world import SimWorld

GOAL_SUCCESS_DISTANCE = 0.2


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("apartments")


@pytest.fixture(scope="module")
def apartment(scenes: Path) -> Iterator[SimWorld]:
    world = SimWorld(0, scenes)
    yield world
    world.close()


def reach_point_goals(world: SimWorld, num_goals: int, seed: int, max_steps: int = 300) -> list[bool]:
    """Random start/goal pairs at least 1 m apart (geodesic); success = STOP within 0.2 m geodesic."""
    rng = np.random.default_rng(seed)
    results = []
    for _ in range(num_goals):
        start, goal = world.grid.sample_navigable_point(rng), world.grid.sample_navigable_point(rng)
        while not 1.0 < world.grid.geodesic_distance(start, [goal]) < np.inf:
            start, goal = world.grid.sample_navigable_point(rng), world.grid.sample_navigable_point(rng)
        world.place(start, rng.uniform(-np.pi, np.pi))
        navigator = Navigator()
        action = None
        for _ in range(max_steps):
            navigator.update(world.observe())
            action = navigator.next_action_to(goal, stop_distance=0.15)
            if action == STOP:
                break
            world.step(action)
        results.append(action == STOP and world.geodesic_distance(goal) <= GOAL_SUCCESS_DISTANCE)
    return results


def explore_coverage(world: SimWorld, seed: int, max_steps: int = 500) -> float:
    """Share of the apartment's navigable area explored by scan + frontier exploration within max_steps."""
    rng = np.random.default_rng(seed)
    world.place(world.grid.sample_navigable_point(rng), rng.uniform(-np.pi, np.pi))
    navigator = Navigator()
    for _ in range(max_steps):
        navigator.update(world.observe())
        action = navigator.next_action_explore()
        if action is None:
            break
        world.step(action)
    return world.explored_navigable_fraction(
        navigator.obstacle_map.explored, navigator.config.map.pixels_per_meter
    )


def test_fmm_reaches_random_point_goals_in_one_apartment(apartment: SimWorld) -> None:
    results = reach_point_goals(apartment, num_goals=8, seed=0)
    assert sum(results) >= 7, results


def test_exploration_covers_most_of_one_apartment(apartment: SimWorld) -> None:
    assert explore_coverage(apartment, seed=0) >= 0.8


@pytest.mark.slow
def test_fmm_reaches_95_percent_of_50_point_goals_over_5_apartments(
    apartment: SimWorld, scenes: Path
) -> None:
    results = []
    for seed in range(5):
        world = SimWorld(seed, scenes, apartment.session)
        results += reach_point_goals(world, num_goals=10, seed=100 + seed)
    assert np.mean(results) >= 0.95, f"{sum(results)} / {len(results)}"


def test_exploration_covers_80_percent_of_5_apartments_within_500_steps(
    apartment: SimWorld, scenes: Path
) -> None:
    coverage = []
    for seed in range(1, 6):
        world = SimWorld(seed, scenes, apartment.session)
        coverage.append(explore_coverage(world, seed=seed))
    assert min(coverage) >= 0.8, coverage
