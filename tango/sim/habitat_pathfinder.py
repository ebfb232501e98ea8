"""habitat_sim's PathFinder and ShortestPath look-alikes over TangoSim's navigability grid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from tango.sim.navgrid import NavGrid


class PathSimulator(Protocol):
    """What the path finder reads from its simulator (TangoSim): the grid of the agent's floor, the seeded
    generator and the simulator's own straight-move and obstacle-distance rules."""

    rng: np.random.Generator

    @property
    def navgrid(self) -> NavGrid: ...

    def try_move(
        self, start: np.ndarray, target: np.ndarray, allow_sliding: bool
    ) -> tuple[np.ndarray, bool]: ...

    def distance_to_closest_obstacle(
        self, point: Sequence[float], max_search_radius: float = 2.0
    ) -> float: ...


@dataclass
class TangoShortestPath:
    """habitat_sim.ShortestPath look-alike: fill requested_start/end, call `find_path`, read points/distance."""

    requested_start: np.ndarray
    requested_end: np.ndarray
    points: list[np.ndarray] | None = None
    geodesic_distance: float = float("inf")


class TangoPathFinder:
    """The subset of habitat_sim.PathFinder that agents and habitat-lab call, over the navigability grid."""

    def __init__(self, sim: PathSimulator) -> None:
        self._sim = sim

    @property
    def grid(self) -> NavGrid:
        return self._sim.navgrid

    @property
    def is_loaded(self) -> bool:
        return True

    def is_navigable(self, point: Sequence[float], max_y_delta: float = 0.5) -> bool:
        """True when the point is on a navigable cell at floor height."""
        point_ = np.asarray(point, dtype=np.float64)
        return abs(point_[1] - self.grid.floor_y) <= max_y_delta and self.grid.is_navigable(point_)

    def snap_point(self, point: Sequence[float]) -> np.ndarray:
        """The nearest navigable point."""
        return self.grid.snap(np.asarray(point, dtype=np.float64)).astype(np.float32)

    def get_random_navigable_point(self) -> np.ndarray:
        """A random navigable point from the simulator's seeded generator."""
        return self.grid.sample_navigable_point(self._sim.rng).astype(np.float32)

    def find_path(self, path: TangoShortestPath) -> bool:
        """Fill `path.points` and `path.geodesic_distance`; False when the end is unreachable."""
        start = np.asarray(path.requested_start, dtype=np.float64)
        end = np.asarray(path.requested_end, dtype=np.float64)
        points = self.grid.shortest_path(start, end)
        if not points:
            path.points, path.geodesic_distance = [], float("inf")
            return False
        path.points = [p.astype(np.float32) for p in points]
        path.geodesic_distance = self.grid.geodesic_distance(start, [end])
        return True

    def geodesic_distance(self, start: Sequence[float], end: Sequence[float]) -> float:
        """Geodesic distance between two points (inf when unreachable)."""
        return self.grid.geodesic_distance(np.asarray(start, np.float64), [np.asarray(end, np.float64)])

    def try_step(self, start: Sequence[float], end: Sequence[float]) -> np.ndarray:
        """Where a straight move from start towards end stops, sliding along obstacles."""
        position, _ = self._sim.try_move(np.asarray(start, np.float64), np.asarray(end, np.float64), True)
        return position.astype(np.float32)

    def try_step_no_sliding(self, start: Sequence[float], end: Sequence[float]) -> np.ndarray:
        """Where a straight move from start towards end stops, without sliding (start when blocked)."""
        position, _ = self._sim.try_move(np.asarray(start, np.float64), np.asarray(end, np.float64), False)
        return position.astype(np.float32)

    def distance_to_closest_obstacle(self, point: Sequence[float], max_search_radius: float = 2.0) -> float:
        """Distance from the point to the nearest non-navigable cell, capped at max_search_radius."""
        return self._sim.distance_to_closest_obstacle(point, max_search_radius)

    def get_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(lower, upper) corners of the navigability grid of this floor, as habitat_sim's navmesh bounds."""
        grid = self.grid
        rows, cols = grid.navigable.shape
        x0, z0 = grid.origin_xz
        lower = np.array([x0, grid.floor_y, z0], dtype=np.float32)
        upper = np.array([x0 + cols * grid.resolution, grid.floor_y, z0 + rows * grid.resolution], np.float32)
        return lower, upper
