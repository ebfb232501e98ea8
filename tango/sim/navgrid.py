"""Navigability grid at floor level and geodesic distances on it by fast marching (scikit-fmm).

A cell is navigable when there is floor under it and no geometry between `obstacle_min_height` above the floor
and the agent's height within the agent's radius. Passages narrower than `min_passage_cells` cells of free
centre line are closed (a morphological opening): an agent with quantised headings cannot thread a gap that
leaves it no lateral tolerance. Only the largest connected region (island) is kept by default, so sampled
points and goals are mutually reachable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import skfmm
import trimesh
from scipy import ndimage

from tango.sim.scene import world_triangles

_SQRT2 = float(np.sqrt(2.0))
FIELD_CACHE_SIZE = 64
"""Distance fields kept per grid (the oldest goes first), so long runs over many goals stay bounded."""


@dataclass(frozen=True)
class NavGridConfig:
    """How the grid is derived from the scene geometry (metres)."""

    resolution: float = 0.05
    agent_radius: float = 0.18
    agent_height: float = 1.5
    obstacle_min_height: float = 0.1
    floor_tolerance: float = 0.1
    min_passage_cells: int = 3
    largest_island_only: bool = True


class NavGridError(ValueError):
    """The scene has no navigable floor, or a query is outside the grid's domain."""


@dataclass
class NavGrid:
    """Boolean navigable mask over the xz plane at height floor_y; cell (i, j) covers x = x0 + (j + 0.5) * res,
    z = z0 + (i + 0.5) * res."""

    navigable: np.ndarray
    origin_xz: tuple[float, float]
    resolution: float
    floor_y: float
    _field_cache: dict[tuple[tuple[float, float], ...], np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def from_scene(
        cls, scene: trimesh.Scene, config: NavGridConfig = NavGridConfig(), floor_y: float | None = None
    ) -> NavGrid:
        """Build the grid from every triangle of the scene; the floor height is estimated when not given."""
        return cls.from_triangles(world_triangles(scene), config, floor_y)

    @classmethod
    def from_triangles(
        cls, triangles: np.ndarray, config: NavGridConfig = NavGridConfig(), floor_y: float | None = None
    ) -> NavGrid:
        """Build the grid from world-space triangles (T, 3, 3)."""
        if len(triangles) == 0:
            raise NavGridError("the scene has no triangles")
        normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
        lengths = np.linalg.norm(normals, axis=1)
        valid = lengths > 1e-12
        up = np.zeros(len(triangles), dtype=bool)
        up[valid] = np.abs(normals[valid, 1] / lengths[valid]) > 0.9
        if floor_y is None:
            floor_y = _estimate_floor(triangles[up], lengths[up] / 2.0)
        res = config.resolution
        margin = config.agent_radius + 2 * res
        lo = triangles[:, :, [0, 2]].reshape(-1, 2).min(axis=0) - margin
        hi = triangles[:, :, [0, 2]].reshape(-1, 2).max(axis=0) + margin
        shape = (int(np.ceil((hi[1] - lo[1]) / res)), int(np.ceil((hi[0] - lo[0]) / res)))
        origin = (float(lo[0]), float(lo[1]))
        tri_y = triangles[:, :, 1]
        floor_tris = triangles[up & (np.abs(tri_y - floor_y).max(axis=1) <= config.floor_tolerance)]
        floor = _rasterise(floor_tris, origin, res, shape, y_range=None)
        slab = (floor_y + config.obstacle_min_height, floor_y + config.agent_height)
        in_slab = (tri_y.max(axis=1) >= slab[0]) & (tri_y.min(axis=1) <= slab[1])
        obstacles = _rasterise(triangles[in_slab], origin, res, shape, y_range=slab)
        blocked = obstacles | ~floor
        clearance = ndimage.distance_transform_edt(~blocked) * res
        navigable = clearance > config.agent_radius
        if config.min_passage_cells > 1:
            square = np.ones((config.min_passage_cells, config.min_passage_cells), dtype=bool)
            navigable = ndimage.binary_opening(navigable, structure=square)
        if config.largest_island_only:
            labels, count = ndimage.label(navigable, structure=np.ones((3, 3)))
            if count == 0:
                raise NavGridError(f"no navigable cell at floor height {floor_y:.2f} m")
            sizes = np.bincount(labels.ravel())[1:]
            navigable = labels == (int(np.argmax(sizes)) + 1)
        if not navigable.any():
            raise NavGridError(f"no navigable cell at floor height {floor_y:.2f} m")
        return cls(navigable=navigable, origin_xz=origin, resolution=res, floor_y=float(floor_y))

    def island_of(self, point: np.ndarray) -> NavGrid:
        """A grid restricted to the connected navigable region (8-connected) holding the point's snapped cell."""
        labels, _ = ndimage.label(self.navigable, structure=np.ones((3, 3)))
        label = labels[self.cell_of(self.snap(np.asarray(point, dtype=np.float64)))]
        return NavGrid(labels == label, self.origin_xz, self.resolution, self.floor_y)

    # --- coordinates ---------------------------------------------------------------------------------------

    def cell_of(self, point: np.ndarray) -> tuple[int, int]:
        """(row, col) of the cell containing the world point (may be outside the grid)."""
        col = int(np.floor((float(point[0]) - self.origin_xz[0]) / self.resolution))
        row = int(np.floor((float(point[2]) - self.origin_xz[1]) / self.resolution))
        return row, col

    def cell_center(self, row: int, col: int) -> np.ndarray:
        """World point (x, floor_y, z) at the centre of a cell."""
        return np.array(
            [
                self.origin_xz[0] + (col + 0.5) * self.resolution,
                self.floor_y,
                self.origin_xz[1] + (row + 0.5) * self.resolution,
            ]
        )

    def _inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.navigable.shape[0] and 0 <= col < self.navigable.shape[1]

    # --- queries -------------------------------------------------------------------------------------------

    def is_navigable(self, point: np.ndarray) -> bool:
        """True when the point's cell is navigable (height is ignored)."""
        row, col = self.cell_of(point)
        return self._inside(row, col) and bool(self.navigable[row, col])

    def segment_navigable(self, start: np.ndarray, end: np.ndarray) -> bool:
        """True when every cell along the straight xz segment is navigable (sampled at half the resolution)."""
        start = np.asarray(start, dtype=np.float64)
        delta = np.asarray(end, dtype=np.float64) - start
        steps = max(1, int(np.ceil(np.hypot(delta[0], delta[2]) / (self.resolution / 2.0))))
        t = np.linspace(0.0, 1.0, steps + 1)
        cols = np.floor((start[0] + t * delta[0] - self.origin_xz[0]) / self.resolution).astype(np.int64)
        rows = np.floor((start[2] + t * delta[2] - self.origin_xz[1]) / self.resolution).astype(np.int64)
        rows_n, cols_n = self.navigable.shape
        if rows.min() < 0 or cols.min() < 0 or rows.max() >= rows_n or cols.max() >= cols_n:
            return False
        return bool(self.navigable[rows, cols].all())

    def snap(self, point: np.ndarray) -> np.ndarray:
        """The nearest navigable cell centre (xz distance); its y is the floor height."""
        row, col = self.cell_of(point)
        if self._inside(row, col) and self.navigable[row, col]:
            return self.cell_center(row, col)
        rows, cols = np.nonzero(self.navigable)
        centers_x = self.origin_xz[0] + (cols + 0.5) * self.resolution
        centers_z = self.origin_xz[1] + (rows + 0.5) * self.resolution
        nearest = int(np.argmin((centers_x - point[0]) ** 2 + (centers_z - point[2]) ** 2))
        return self.cell_center(int(rows[nearest]), int(cols[nearest]))

    def sample_navigable_point(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random point inside a navigable cell."""
        rows, cols = np.nonzero(self.navigable)
        index = int(rng.integers(len(rows)))
        offset = rng.uniform(-0.5, 0.5, size=2) * self.resolution
        center = self.cell_center(int(rows[index]), int(cols[index]))
        return center + np.array([offset[0], 0.0, offset[1]])

    def distance_field(self, goals: list[np.ndarray]) -> np.ndarray:
        """Geodesic distance (metres) from every cell to the nearest goal; inf where unreachable. The last
        FIELD_CACHE_SIZE fields are cached."""
        snapped = [self.snap(np.asarray(goal, dtype=np.float64)) for goal in goals]
        key = tuple(sorted({(round(float(g[0]), 4), round(float(g[2]), 4)) for g in snapped}))
        cached = self._field_cache.get(key)
        if cached is not None:
            return cached
        if not key:
            raise NavGridError("geodesic distance needs at least one goal")
        res = self.resolution
        seed_radius = 0.75 * res
        # Goals are snapped to cell centres, so the distance from every cell centre to the nearest goal is the
        # exact Euclidean distance transform of the goal cells (linear in the grid, whatever the goal count).
        goal_cells = np.zeros(self.navigable.shape, dtype=bool)
        for goal in snapped:
            goal_cells[self.cell_of(goal)] = True
        phi = ndimage.distance_transform_edt(~goal_cells) * res - seed_radius
        masked: np.ma.MaskedArray = np.ma.MaskedArray(phi, mask=~self.navigable)
        distance = skfmm.distance(masked, dx=res)
        result = np.full(self.navigable.shape, np.inf)
        reached = ~np.ma.getmaskarray(distance)
        result[reached] = np.asarray(distance)[reached] + seed_radius
        if len(self._field_cache) >= FIELD_CACHE_SIZE:
            del self._field_cache[next(iter(self._field_cache))]
        self._field_cache[key] = result
        return result

    def geodesic_distance(self, start: np.ndarray, goals: list[np.ndarray]) -> float:
        """Shortest navigable path length from start to the nearest goal (inf when unreachable)."""
        start = np.asarray(start, dtype=np.float64)
        field_ = self.distance_field(goals)
        row, col = self.cell_of(start)
        if self._inside(row, col) and self.navigable[row, col]:
            return self._interpolate(field_, start)
        snapped = self.snap(start)
        offset = float(np.hypot(snapped[0] - start[0], snapped[2] - start[2]))
        return float(field_[self.cell_of(snapped)]) + offset

    def _interpolate(self, field_: np.ndarray, point: np.ndarray) -> float:
        """Bilinear interpolation over the four surrounding cell centres when all are finite, else the cell."""
        fx = (float(point[0]) - self.origin_xz[0]) / self.resolution - 0.5
        fz = (float(point[2]) - self.origin_xz[1]) / self.resolution - 0.5
        c0, r0 = int(np.floor(fx)), int(np.floor(fz))
        row, col = self.cell_of(point)
        if not (self._inside(r0, c0) and self._inside(r0 + 1, c0 + 1)):
            return float(field_[row, col])
        block = field_[r0 : r0 + 2, c0 : c0 + 2]
        if not np.isfinite(block).all():
            return float(field_[row, col])
        tx, tz = fx - c0, fz - r0
        top = block[0, 0] * (1 - tx) + block[0, 1] * tx
        bottom = block[1, 0] * (1 - tx) + block[1, 1] * tx
        return float(top * (1 - tz) + bottom * tz)

    def shortest_path(self, start: np.ndarray, goal: np.ndarray) -> list[np.ndarray]:
        """Waypoints from start to goal (both included, y = floor) following the distance field, shortened by
        line of sight; empty when the goal is unreachable."""
        start = np.asarray(start, dtype=np.float64)
        goal = np.asarray(goal, dtype=np.float64)
        goal_point = goal if self.is_navigable(goal) else self.snap(goal)
        cells = self.descent(start, [goal_point])
        if cells is None:
            return []
        points = [np.array([start[0], self.floor_y, start[2]])] + cells[:-1]
        points.append(np.array([goal_point[0], self.floor_y, goal_point[2]]))
        return self._shorten(points)

    def descent(
        self, start: np.ndarray, goals: list[np.ndarray], max_cells: int | None = None
    ) -> list[np.ndarray] | None:
        """Cell centres visited by steepest descent of the goals' distance field from start's cell (start's cell
        excluded, the last one in the goal region); None when no goal is reachable."""
        field_ = self.distance_field(goals)
        current = self.cell_of(self.snap(np.asarray(start, dtype=np.float64)))
        if not np.isfinite(field_[current]):
            return None
        padded_rows, padded_cols = field_.shape
        cells: list[np.ndarray] = []
        while max_cells is None or len(cells) < max_cells:
            r0, c0 = max(current[0] - 1, 0), max(current[1] - 1, 0)
            window = field_[r0 : min(current[0] + 2, padded_rows), c0 : min(current[1] + 2, padded_cols)]
            best = np.unravel_index(int(np.argmin(window)), window.shape)
            candidate = (r0 + int(best[0]), c0 + int(best[1]))
            if window[best] >= field_[current]:
                break
            current = candidate
            cells.append(self.cell_center(*current))
        if not cells:
            cells.append(self.cell_center(*current))
        return cells

    def _shorten(self, points: list[np.ndarray]) -> list[np.ndarray]:
        """Drop waypoints that the previous kept waypoint can see directly (string pulling)."""
        kept = [points[0]]
        index = 0
        while index < len(points) - 1:
            furthest = index + 1
            for candidate in range(len(points) - 1, index + 1, -1):
                if self.segment_navigable(points[index], points[candidate]):
                    furthest = candidate
                    break
            kept.append(points[furthest])
            index = furthest
        return kept


def _estimate_floor(up_triangles: np.ndarray, areas: np.ndarray) -> float:
    """The height (5 cm bins) holding the most upward-facing surface area: the main floor."""
    if len(up_triangles) == 0:
        raise NavGridError("the scene has no horizontal surfaces to stand on")
    heights = up_triangles[:, :, 1].mean(axis=1)
    bins = np.round(heights / 0.05).astype(np.int64)
    unique, inverse = np.unique(bins, return_inverse=True)
    totals = np.bincount(inverse, weights=areas)
    best = unique[int(np.argmax(totals))]
    return float(np.median(heights[bins == best]))


def _rasterise(
    triangles: np.ndarray,
    origin: tuple[float, float],
    res: float,
    shape: tuple[int, int],
    y_range: tuple[float, float] | None,
) -> np.ndarray:
    """Mark every cell that a triangle's surface passes over, by sampling each triangle on a barycentric lattice
    finer than half a cell; with y_range only the part of the surface inside that height band counts."""
    grid = np.zeros(shape, dtype=bool)
    if len(triangles) == 0:
        return grid
    step = res / 2.0
    edges = np.stack(
        [
            np.linalg.norm(triangles[:, 1] - triangles[:, 0], axis=1),
            np.linalg.norm(triangles[:, 2] - triangles[:, 0], axis=1),
            np.linalg.norm(triangles[:, 2] - triangles[:, 1], axis=1),
        ],
        axis=1,
    ).max(axis=1)
    divisions = np.maximum(1, np.ceil(edges / step).astype(np.int64))
    for n in np.unique(divisions):
        group = triangles[divisions == n]
        i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
        keep = (i + j) <= n
        u = (i[keep] / n)[None, :, None]
        v = (j[keep] / n)[None, :, None]
        chunk = max(1, 2_000_000 // u.shape[1])
        for begin in range(0, len(group), chunk):
            tris = group[begin : begin + chunk]
            a = tris[:, None, 0]
            points = (a + u * (tris[:, None, 1] - a) + v * (tris[:, None, 2] - a)).reshape(-1, 3)
            if y_range is not None:
                points = points[(points[:, 1] >= y_range[0]) & (points[:, 1] <= y_range[1])]
            cols = np.floor((points[:, 0] - origin[0]) / res).astype(np.int64)
            rows = np.floor((points[:, 2] - origin[1]) / res).astype(np.int64)
            inside = (rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])
            grid[rows[inside], cols[inside]] = True
    return grid
