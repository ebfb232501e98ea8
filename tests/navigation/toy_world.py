"""A 2D occupancy-grid world for controller tests: discrete motion with collisions and a fake range sensor."""

from __future__ import annotations

import numpy as np

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import MOVE_FORWARD, TURN_LEFT, TURN_RIGHT


class ToyWorld:
    """Walls on a 0.05 m grid centred like the map; moves of 0.25 m are refused when they would bring the
    agent within its radius of a wall. `hidden` walls block motion but are never sensed."""

    def __init__(self, walls: np.ndarray, hidden: np.ndarray | None = None, cell: float = 0.05) -> None:
        self.walls = walls
        self.hidden = hidden if hidden is not None else np.zeros_like(walls)
        self.cell = cell
        self.origin = walls.shape[0] // 2
        self.position = np.zeros(3)
        self.yaw = 0.0

    def world_cells(self, mask: np.ndarray) -> np.ndarray:
        rows, cols = np.nonzero(mask)
        x = (cols - self.origin) * self.cell
        z = (self.origin - rows) * self.cell
        return np.stack((x, np.full_like(x, 0.5), z), axis=1)

    def blocked(self, position: np.ndarray, radius: float = 0.18) -> bool:
        pts = self.world_cells(self.walls | self.hidden)
        return bool(np.any(np.hypot(pts[:, 0] - position[0], pts[:, 2] - position[2]) < radius))

    def step(self, action: str) -> None:
        if action == TURN_LEFT:
            self.yaw += np.deg2rad(30)
        elif action == TURN_RIGHT:
            self.yaw -= np.deg2rad(30)
        elif action == MOVE_FORWARD:
            target = self.position + 0.25 * np.array([-np.sin(self.yaw), 0.0, -np.cos(self.yaw)])
            if not self.blocked(target):
                self.position = target

    def sense(self, omap: ObstacleMap, sensing_range: float = 3.0) -> None:
        """Mark visible walls within range (no occlusion) and reveal a full circle of free space."""
        pts = self.world_cells(self.walls)
        near = np.hypot(pts[:, 0] - self.position[0], pts[:, 2] - self.position[2]) < sensing_range
        omap.mark_obstacles(pts[near])
        pose = np.eye(4)
        for k in range(4):
            yaw = self.yaw + k * np.pi / 2
            c, s = np.cos(yaw), np.sin(yaw)
            pose[:3, :3] = [[c, 0, s], [0, 1, 0], [-s, 0, c]]
            pose[:3, 3] = self.position
            omap.reveal(pose, 90.0)


def walled_room(size_px: int = 400, door: bool = True) -> np.ndarray:
    """A 10 x 10 m room (at 0.05 m cells in a 20 x 20 m grid) split by a wall at z = 0 with a 1 m door."""
    walls = np.zeros((size_px, size_px), bool)
    o = size_px // 2
    walls[o - 100, o - 100 : o + 100] = True
    walls[o + 100, o - 100 : o + 100] = True
    walls[o - 100 : o + 100, o - 100] = True
    walls[o - 100 : o + 101, o + 100] = True
    walls[o, o - 100 : o + 100] = True
    if door:
        walls[o, o + 50 : o + 70] = False
    return walls
