"""The learned controller's approach point for an object inside furniture: a reachable cell at the edge of the
stop disk, on the agent's side, chosen from the agent's own obstacle map."""

from __future__ import annotations

import numpy as np

from tango.mapping.config import MapConfig
from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.approach import approach_point
from tango.navigation.fmm_controller import planar_distance
from tests.navigation.toy_world import ToyWorld, walled_room


def _mapped(walls: np.ndarray, position: np.ndarray) -> tuple[ToyWorld, ObstacleMap]:
    world = ToyWorld(walls)
    world.position = position
    omap = ObstacleMap(MapConfig(size_px=400, pixels_per_meter=20))
    world.sense(omap, sensing_range=20.0)
    return world, omap


def test_an_object_inside_a_table_is_approached_from_the_table_edge_on_the_agents_side() -> None:
    walls = walled_room()
    o = walls.shape[0] // 2
    walls[o - 60 : o - 40, o - 10 : o + 10] = True  # a 1 x 1 m table centred at (0, 2.5)
    world, omap = _mapped(walls, np.array([-3.0, 0.0, 2.5]))
    table = np.array([0.0, 0.5, 2.5])
    point = approach_point(omap, world.position, table, radius=0.8)
    pixel = omap.grid.world_to_pixel(point[None])[0]
    assert omap.navigable[pixel[0], pixel[1]]
    assert planar_distance(point, table) <= 0.8 + 0.05 and point[0] < 0.0  # the agent's (west) side
    assert not world.blocked(point)


def test_a_target_behind_a_closed_wall_gives_the_nearest_reachable_point() -> None:
    world, omap = _mapped(walled_room(door=False), np.array([0.0, 0.0, -2.0]))
    behind = np.array([0.0, 0.5, 2.0])
    point = approach_point(omap, world.position, behind, radius=0.8)
    assert point[2] < 0.0 and point[2] > -0.6  # against the wall at z = 0, on the agent's side
