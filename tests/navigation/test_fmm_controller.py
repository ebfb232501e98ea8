"""The fast-marching controller on a toy grid world: detours through doors, replans, recovers from collisions."""

from __future__ import annotations

import numpy as np

from tango.mapping.config import MapConfig
from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import STOP
from tango.navigation.fmm_controller import FmmController, heading_to, wrap_angle
from tests.navigation.toy_world import ToyWorld, walled_room


def run(
    world: ToyWorld, goal: np.ndarray, max_steps: int = 300, sensing_range: float = 3.0
) -> tuple[int, bool]:
    omap = ObstacleMap(MapConfig(size_px=400, pixels_per_meter=20))
    controller = FmmController()
    for step in range(max_steps):
        world.sense(omap, sensing_range)
        action = controller.act(world.position, world.yaw, goal, omap, stop_radius=0.15)
        if action == STOP:
            return step, True
        world.step(action)
    return max_steps, False


def test_heading_and_angle_helpers() -> None:
    assert heading_to(np.zeros(3), np.array([0.0, 0.0, -1.0])) == 0.0
    assert abs(heading_to(np.zeros(3), np.array([-1.0, 0.0, 0.0])) - np.pi / 2) < 1e-12
    assert abs(wrap_angle(3 * np.pi / 2) + np.pi / 2) < 1e-12


def test_reaches_goal_in_the_open() -> None:
    world = ToyWorld(walled_room(door=False))
    world.position = np.array([0.0, 0.0, -1.0])
    goal = np.array([2.0, 0.0, -3.0])
    steps, arrived = run(world, goal)
    assert arrived and np.hypot(*(world.position - goal)[[0, 2]]) <= 0.15
    # straight-line distance 2.83 m = 12 steps, plus a few turns
    assert steps < 25


def test_goes_through_the_door_to_the_other_room() -> None:
    world = ToyWorld(walled_room(door=True))
    world.position = np.array([-2.0, 0.0, -2.0])
    goal = np.array([-2.0, 0.0, 2.0])
    steps, arrived = run(world, goal)
    assert arrived and np.hypot(*(world.position - goal)[[0, 2]]) <= 0.15
    assert steps < 120


def test_replans_when_walls_appear_late_with_short_sensing() -> None:
    world = ToyWorld(walled_room(door=True))
    world.position = np.array([-2.0, 0.0, -2.0])
    goal = np.array([-2.0, 0.0, 2.0])
    controller_steps, arrived = run(world, goal, max_steps=400, sensing_range=1.0)
    assert arrived and controller_steps < 400


def test_unsensed_obstacle_is_learned_from_collisions() -> None:
    walls = walled_room(door=False)
    hidden = np.zeros_like(walls)
    o = walls.shape[0] // 2
    hidden[o + 40, o - 30 : o + 30] = True  # a glass wall at z = -2 m, 3 m wide, between start and goal
    world = ToyWorld(walls, hidden)
    world.position = np.array([0.0, 0.0, -1.0])
    goal = np.array([0.0, 0.0, -3.5])
    _, arrived = run(world, goal, max_steps=300)
    assert arrived, f"stuck at {world.position}"


def test_unreachable_goal_gets_as_close_as_the_map_allows() -> None:
    world = ToyWorld(walled_room(door=False))
    world.position = np.array([0.0, 0.0, -2.0])
    omap = ObstacleMap(MapConfig(size_px=400, pixels_per_meter=20))
    controller = FmmController()
    goal = np.array([0.0, 0.0, 2.0])  # behind the closed wall at z = 0
    for _ in range(60):
        world.sense(omap, sensing_range=20.0)  # every wall known: the goal room is sealed
        world.step(controller.act(world.position, world.yaw, goal, omap, stop_radius=0.15))
    assert controller.unreachable
    assert world.position[2] > -0.6  # pressed up against the wall at z = 0 (radius + inflation)
