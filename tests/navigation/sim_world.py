"""Drives the embedded simulator's parts (procedural apartment, GL renderer, NavGrid) with habitat's discrete
actions, for end-to-end navigation tests. A forward step that would leave the navigable grid slides along the
x or z axis instead (the apartments' walls are axis-aligned), like habitat's navmesh sliding, else is refused."""

from __future__ import annotations

import numpy as np

from tango.agent.observation import Observation
from tango.navigation.actions import MOVE_FORWARD, TURN_LEFT, TURN_RIGHT
from tango.scenes.apartment import generate_apartment
from tango.sim.navgrid import NavGrid
from tango.sim.pose import camera_pose, forward_vector
from tango.sim.render import Renderer

CAMERA_HEIGHT = 0.88
HFOV = 79.0


class SimWorld:
    """One apartment with an agent pose; `observe()` renders, `step(action)` moves."""

    def __init__(self, seed: int, resolution: int = 256) -> None:
        scene = generate_apartment(seed).scene()
        self.grid = NavGrid.from_scene(scene)
        self.renderer = Renderer(scene, resolution, resolution, HFOV, 0.5, 5.0, sensors=("rgb", "depth"))
        self.position = np.zeros(3)
        self.yaw = 0.0

    def close(self) -> None:
        self.renderer.release()

    def place(self, position: np.ndarray, yaw: float) -> None:
        self.position = np.array([position[0], self.grid.floor_y, position[2]], dtype=float)
        self.yaw = yaw

    def observe(self) -> Observation:
        pose = camera_pose(self.position, self.yaw, height=CAMERA_HEIGHT)
        frame = self.renderer.render(pose)
        assert frame.depth is not None and frame.rgb is not None
        return Observation(frame.rgb, frame.depth, pose, HFOV, self.position.copy(), self.yaw)

    def step(self, action: str) -> None:
        if action == TURN_LEFT:
            self.yaw += np.deg2rad(30.0)
        elif action == TURN_RIGHT:
            self.yaw -= np.deg2rad(30.0)
        elif action == MOVE_FORWARD:
            step = 0.25 * forward_vector(self.yaw)
            slides = sorted(([step[0], 0.0, 0.0], [0.0, 0.0, step[2]]), key=lambda v: -abs(v[0] + v[2]))
            for delta in [step, *slides]:
                target = self.position + np.asarray(delta)
                if self.grid.segment_navigable(self.position, target):
                    self.position = target
                    break

    def navigable_area_m2(self) -> float:
        return float(self.grid.navigable.sum()) * self.grid.resolution**2

    def explored_navigable_fraction(self, explored: np.ndarray, pixels_per_meter: int) -> float:
        """Share of the NavGrid's navigable cells whose map cell is explored."""
        rows, cols = np.nonzero(self.grid.navigable)
        x = self.grid.origin_xz[0] + (cols + 0.5) * self.grid.resolution
        z = self.grid.origin_xz[1] + (rows + 0.5) * self.grid.resolution
        origin = explored.shape[0] // 2
        map_rows = (origin - np.rint(z * pixels_per_meter)).astype(int)
        map_cols = (origin + np.rint(x * pixels_per_meter)).astype(int)
        return float(explored[map_rows, map_cols].mean())
