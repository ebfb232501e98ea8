"""Background pedestrians walking the pavements: straight stretches at walking pace, turning where blocked.

The avatar touching one (closer than `CONTACT_M`) counts one collision per encounter, as the app's
`pedestrian_collisions` counter does.
"""

from __future__ import annotations

import math

import numpy as np

from tango.urban.city.raster import PAVEMENT_CLASSES, CityRaster

SPEED_M_S = 1.2
CONTACT_M = 0.6


class Crowd:
    """Pedestrian positions (local east, north) and headings, advanced with the simulation clock."""

    def __init__(self, raster: CityRaster, count: int, seed: int) -> None:
        self.raster = raster
        self.rng = np.random.default_rng(seed)
        rows, cols = np.nonzero(np.isin(raster.classes, PAVEMENT_CLASSES))
        picks = self.rng.choice(len(rows), size=count, replace=False) if count else np.zeros(0, np.int64)
        self.positions = np.array([raster.center(int(rows[k]), int(cols[k])) for k in picks]).reshape(-1, 2)
        self.headings = self.rng.uniform(0, 2 * math.pi, size=len(self.positions))
        self.colours = self.rng.integers(40, 230, size=(len(self.positions), 3))
        self.in_contact: set[int] = set()

    def __len__(self) -> int:
        return len(self.positions)

    def advance(self, seconds: float) -> None:
        """Walk everyone for `seconds`; a pedestrian facing a non-pavement cell picks a new heading."""
        step = SPEED_M_S * seconds
        for index in range(len(self.positions)):
            for _ in range(4):
                dx, dy = math.sin(self.headings[index]) * step, math.cos(self.headings[index]) * step
                x, y = self.positions[index] + (dx, dy)
                if self.raster.class_at(x, y) in PAVEMENT_CLASSES:
                    self.positions[index] = (x, y)
                    break
                self.headings[index] = self.rng.uniform(0, 2 * math.pi)

    def collisions(self, east: float, north: float) -> int:
        """New contacts with the avatar at (east, north) since the last call."""
        if not len(self.positions):
            return 0
        near = np.hypot(self.positions[:, 0] - east, self.positions[:, 1] - north) < CONTACT_M
        touching = set(np.flatnonzero(near).tolist())
        new = len(touching - self.in_contact)
        self.in_contact = touching
        return new
