"""Navigability grid on a walled room with a partition: clearance, geodesics, paths, islands."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import trimesh

from tango.sim.navgrid import NavGrid, NavGridConfig
from tests.sim.builders import PARTITION_END_Z, room_scene


@pytest.fixture(scope="module")
def grid() -> NavGrid:
    return NavGrid.from_scene(room_scene())


def _path_length(points: list[np.ndarray]) -> float:
    return float(sum(np.linalg.norm(b - a) for a, b in itertools.pairwise(points)))


def test_floor_and_clearance(grid: NavGrid) -> None:
    assert grid.floor_y == pytest.approx(0.0, abs=0.01)
    assert grid.is_navigable(np.array([-2.0, 0.0, -2.0]))
    assert not grid.is_navigable(np.array([-3.9, 0.0, 0.0]))  # within the radius of the west wall
    assert not grid.is_navigable(np.array([0.1, 0.0, 1.0]))  # next to the partition
    assert not grid.is_navigable(np.array([-2.5, 0.0, 1.5]))  # inside the chair
    assert grid.is_navigable(np.array([0.0, 0.0, -2.0]))  # the gap past the partition
    assert not grid.is_navigable(np.array([10.0, 0.0, 0.0]))


def test_geodesic_goes_around_the_partition(grid: NavGrid) -> None:
    start, goal = np.array([-1.5, 0.0, 2.5]), np.array([1.5, 0.0, 2.5])
    # Lower bound: straight to the partition's end corners (x = -+0.05, z = -1) and on; keeping the radius
    # around those corners adds roughly radius x turning angle (about 0.4 m here).
    lower = 2 * np.hypot(1.5 - 0.05, 2.5 - PARTITION_END_Z) + 0.1
    distance = grid.geodesic_distance(start, [goal])
    assert lower + 0.2 <= distance <= lower + 0.7
    assert grid.geodesic_distance(start, [start]) < 0.05
    path = grid.shortest_path(start, goal)
    assert np.allclose(path[0], start) and np.allclose(path[-1], goal)
    assert all(grid.segment_navigable(a, b) for a, b in itertools.pairwise(path))
    assert _path_length(path) == pytest.approx(distance, rel=0.05)
    assert min(p[2] for p in path) < PARTITION_END_Z


def test_distance_field_is_cached(grid: NavGrid) -> None:
    goals = [np.array([3.0, 0.0, -2.0]), np.array([-3.0, 0.0, -2.0])]
    first = grid.distance_field(goals)
    assert grid.distance_field(list(reversed(goals))) is first
    nearer = grid.geodesic_distance(np.array([-2.0, 0.0, -2.0]), goals)
    assert nearer == pytest.approx(1.0, abs=0.05)


def test_sampled_points_are_navigable(grid: NavGrid) -> None:
    rng = np.random.default_rng(0)
    points = [grid.sample_navigable_point(rng) for _ in range(50)]
    assert all(grid.is_navigable(p) for p in points)
    snapped = grid.snap(np.array([-2.5, 0.0, 1.5]))
    assert grid.is_navigable(snapped) and np.hypot(snapped[0] + 2.5, snapped[2] - 1.5) < 0.6


def _two_sealed_rooms() -> trimesh.Scene:
    scene = room_scene()
    seal = trimesh.creation.box((0.1, 2.5, 2.0))
    seal.apply_translation([0.0, 1.25, -2.0])
    scene.add_geometry(seal, node_name="seal")
    return scene


def test_unreachable_is_inf_and_islands() -> None:
    split = NavGrid.from_scene(_two_sealed_rooms(), NavGridConfig(largest_island_only=False))
    west, east = np.array([-2.0, 0.0, -2.0]), np.array([2.0, 0.0, -2.0])
    assert split.is_navigable(west) and split.is_navigable(east)
    assert split.geodesic_distance(west, [east]) == np.inf
    assert split.shortest_path(west, east) == []
    largest = NavGrid.from_scene(_two_sealed_rooms())
    assert largest.is_navigable(west) != largest.is_navigable(east)


def test_island_of_a_point() -> None:
    split = NavGrid.from_scene(_two_sealed_rooms(), NavGridConfig(largest_island_only=False))
    west, east = np.array([-2.0, 0.0, -2.0]), np.array([2.0, 0.0, -2.0])
    west_only = split.island_of(west)
    assert west_only.is_navigable(west) and not west_only.is_navigable(east)
    rng = np.random.default_rng(1)
    assert all(west_only.sample_navigable_point(rng)[0] < 0 for _ in range(20))
