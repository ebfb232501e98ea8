"""One procedural apartment run by the embedded simulator (TangoSim-v0 through habitat-lab, via SimSession) for
end-to-end navigation tests; the scene's NavGrid supplies start/goal sampling and the coverage reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tango.agent.sim_session import SimSession
from tango.scenes.apartment import generate_apartment
from tango.sim.config import EmbeddedSimConfig
from tango.sim.navgrid import NavGrid
from tango.types.observation import Observation
from tango.types.poses import yaw_to_quaternion


class SimWorld:
    """`place(position, yaw)` starts an episode, `observe()` is the latest frame, `step(action)` acts."""

    def __init__(self, seed: int, folder: Path, session: SimSession | None = None) -> None:
        apartment = generate_apartment(seed)
        self.scene_path, _ = apartment.write(folder, f"apt_{seed:03d}")
        self.grid = NavGrid.from_scene(apartment.scene())
        self.session = session or SimSession(EmbeddedSimConfig(sensors=["rgb", "depth"]))
        self._obs: Observation | None = None

    def close(self) -> None:
        self.session.close()

    @property
    def position(self) -> np.ndarray:
        return self.session.position()

    def place(self, position: np.ndarray, yaw: float) -> None:
        self._obs = self.session.start(self.scene_path, position, yaw_to_quaternion(yaw))

    def observe(self) -> Observation:
        assert self._obs is not None, "place() the agent first"
        return self._obs

    def step(self, action: str) -> None:
        self._obs = self.session.step(action)

    def geodesic_distance(self, goal: np.ndarray) -> float:
        return self.session.geodesic_distance(self.position, [goal])

    def explored_navigable_fraction(self, explored: np.ndarray, pixels_per_meter: int) -> float:
        """Share of the NavGrid's navigable cells whose map cell is explored."""
        rows, cols = np.nonzero(self.grid.navigable)
        x = self.grid.origin_xz[0] + (cols + 0.5) * self.grid.resolution
        z = self.grid.origin_xz[1] + (rows + 0.5) * self.grid.resolution
        origin = explored.shape[0] // 2
        map_rows = (origin - np.rint(z * pixels_per_meter)).astype(int)
        map_cols = (origin + np.rint(x * pixels_per_meter)).astype(int)
        return float(explored[map_rows, map_cols].mean())
