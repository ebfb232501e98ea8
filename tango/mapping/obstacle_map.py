"""Obstacle, navigable and explored layers of the top-down map, and the frontier waypoints between them."""

from __future__ import annotations

import cv2
import numpy as np

from tango.mapping.config import MapConfig
from tango.mapping.contour_frontiers import detect_contour_frontiers
from tango.mapping.fog_of_war import reveal_cone
from tango.mapping.frontiers import detect_frontiers
from tango.mapping.geometry import CameraRays, MapGrid, camera_yaw
from tango.mapping.kernels import band_points, mark_points, sweep_rays
from tango.mapping.ray_fan import RayFan
from tango.types.observation import Observation

RAY_STEP_PX = 1.0
THICKEN_KERNEL = np.ones((3, 3), np.uint8)
REVEAL_DILATION = np.ones((3, 3), np.uint8)
HEIGHT_TABLES = 16
"""How many rotations' per-pixel height tables `add_depth` keeps (12 headings of 30-degree turns, and pitch)."""


def vlfm_intrinsics(intrinsics: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The intrinsics with VLFM's principal point, pixel (width // 2, height // 2) instead of the image centre."""
    adjusted = np.array(intrinsics, dtype=np.float64)
    adjusted[0, 2], adjusted[1, 2] = shape[1] // 2, shape[0] // 2
    return adjusted


class ObstacleMap:
    """Obstacles from depth points in a height band; navigable = not (obstacles dilated by a disk of the agent's
    diameter, int(2 r ppm) rounded up to odd pixels, as VLFM's square kernel but round so that corners of
    furniture do not close passages);
    explored = cells swept by field-of-view rays up to max depth, stopping one pixel short of an obstacle (the
    obstacles are thickened by one pixel so rays cannot slip through gaps between sparse far-away points).

    With `explored_method="vlfm"` the layers follow VLFM's ObstacleMap instead: a square footprint kernel, the
    principal point at pixel (w // 2, h // 2), the explored area grown by its fog-of-war reveal (fog_of_war.py)
    dilated by 3x3, cut to navigable cells and, when it splits, reduced to the part holding the camera (holes
    filled), and frontiers by its contour rule (contour_frontiers.py).

    Every update touches only the window that the frame can see, so its cost does not grow with the map size;
    new obstacles from depth update the navigable and ray-blocking layers cell by cell (`mark_points`).
    """

    def __init__(self, config: MapConfig | None = None) -> None:
        self.config = config or MapConfig()
        self.grid = MapGrid(self.config.size_px, self.config.pixels_per_meter)
        size = self.config.size_px
        self.obstacles = np.zeros((size, size), dtype=bool)
        self.navigable = np.ones((size, size), dtype=bool)
        self._ray_blocking = np.zeros((size, size), dtype=bool)
        self._rays = CameraRays()
        self._heights_rays: np.ndarray | None = None
        self._heights: dict[bytes, np.ndarray] = {}
        self._band_buffers = (np.empty(0, np.bool_), np.empty(0, np.float32), np.empty((0, 3), np.float32))
        self._fan = RayFan(self.config.max_depth * self.config.pixels_per_meter, RAY_STEP_PX)
        self.explored_bounds: tuple[int, int, int, int] | None = None
        """Bounding box (row0, row1, col0, col1), ends exclusive, of the explored cells."""
        self.explored = np.zeros((size, size), dtype=bool)
        kernel = int(self.config.pixels_per_meter * self.config.agent_radius * 2)
        kernel += int(kernel % 2 == 0)
        self._vlfm = self.config.explored_method == "vlfm"
        shape = cv2.MORPH_RECT if self._vlfm else cv2.MORPH_ELLIPSE
        self._kernel = cv2.getStructuringElement(shape, (kernel, kernel))
        self._footprint = _offsets(self._kernel)
        self._thickening = _offsets(THICKEN_KERNEL) if not self._vlfm else np.zeros((0, 2), np.int64)
        self.version = 0
        self._frontier_cache: tuple[int, np.ndarray] | None = None
        self._collision_pixels: list[np.ndarray] = []
        self._views: list[tuple[np.ndarray, float]] = []
        """Camera pose and field of view of every frame revealed (for `explore_closer`)."""

    @property
    def inflation_px(self) -> int:
        """How many pixels the agent radius dilates each obstacle by."""
        return self._kernel.shape[0] // 2

    def update(self, obs: Observation) -> None:
        """Fuse one frame: obstacles from its depth, then the area its field of view reveals."""
        floor_y = float(obs.agent_position[1])
        intrinsics = obs.intrinsics()
        if self._vlfm:
            intrinsics = vlfm_intrinsics(intrinsics, obs.depth.shape)
        self.add_depth(obs.depth, intrinsics, obs.camera_pose, floor_y)
        self.reveal(obs.camera_pose, obs.hfov_deg)

    def add_depth(
        self, depth: np.ndarray, intrinsics: np.ndarray, camera_pose: np.ndarray, floor_y: float
    ) -> None:
        """Mark the cells under depth points whose height above the floor lies in the obstacle band.

        Heights are computed for every pixel first (one dot product per pixel with cached camera rays), so only
        the points in the band are transformed in full.
        """
        rays = self._rays.get(depth.shape, intrinsics)
        d = depth.reshape(-1)
        rotation = camera_pose[:3, :3].astype(np.float32)
        cfg, as_depth = self.config, d.dtype.type  # (numpy compares with a Python float in the array's type)
        band, band_depth, band_rays = self._scratch(d)
        kept = band_points(
            d,
            self._ray_heights(rays, rotation),
            rays,
            np.float32(camera_pose[1, 3] - floor_y),
            as_depth(cfg.max_depth),
            as_depth(cfg.min_obstacle_height),
            as_depth(cfg.max_obstacle_height),
            band,
            band_depth,
            band_rays,
        )
        band_depth, band_rays = band_depth[:kept], band_rays[:kept]
        grid = self.grid
        fresh = mark_points(
            band_depth,
            band_rays @ rotation[0],
            band_rays @ rotation[2],
            np.float32(camera_pose[0, 3]),
            np.float32(camera_pose[2, 3]),
            float(grid.pixels_per_meter),
            float(grid.origin),
            self.obstacles.reshape(-1),
            grid.size,
            self.navigable.reshape(-1),
            self._footprint,
            self._ray_blocking.reshape(-1),
            self._thickening,
        )
        if fresh[0] >= 0:
            self.version += 1

    def _scratch(self, depth: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-pixel buffers for `band_points` (a mask, depths, rays), kept while frames keep their size and
        depth type, so a step allocates none."""
        band, band_depth, band_rays = self._band_buffers
        if band.shape[0] != depth.shape[0] or band_depth.dtype != depth.dtype:
            band = np.empty(depth.shape[0], np.bool_)
            band_depth = np.empty(depth.shape[0], depth.dtype)
            band_rays = np.empty((depth.shape[0], 3), np.float32)
            self._band_buffers = (band, band_depth, band_rays)
        return band, band_depth, band_rays

    def _ray_heights(self, rays: np.ndarray, rotation: np.ndarray) -> np.ndarray:
        """`rays @ rotation[1]` (each pixel's height per metre of depth), kept for the last HEIGHT_TABLES
        rotations while the rays are the same array: turns step through a few headings, and a heading the
        agent faced before has bit for bit the same rotation."""
        if self._heights_rays is not rays:
            self._heights_rays, self._heights = rays, {}
        key = rotation.tobytes()
        heights = self._heights.pop(key, None)
        if heights is None:
            heights = rays @ rotation[1]
            if len(self._heights) >= HEIGHT_TABLES:
                del self._heights[next(iter(self._heights))]
        self._heights[key] = heights  # (re-inserted: the dict's order is least recently used first)
        return heights

    def mark_obstacles(self, points: np.ndarray) -> None:
        """Mark world points (N, 3) as obstacles (also used for collisions) and refresh navigability locally."""
        self._mark_pixels(self.grid.world_to_pixel(points) if len(points) else np.zeros((0, 2), np.int64))

    def mark_collision(self, points: np.ndarray) -> None:
        """Mark world points where a move was blocked; unlike seen obstacles these marks can be withdrawn
        (`clear_collisions`), since a few of them next to a door frame can close the doorway on the map."""
        pixels = self._mark_pixels(
            self.grid.world_to_pixel(points) if len(points) else np.zeros((0, 2), np.int64)
        )
        if len(pixels):
            self._collision_pixels.append(pixels)

    def clear_collisions(self) -> bool:
        """Withdraw every collision mark (cells seen as obstacles in depth return with the next frame that sees
        them); True when there was any."""
        if not self._collision_pixels:
            return False
        pixels = np.concatenate(self._collision_pixels)
        self._collision_pixels = []
        self.obstacles[pixels[:, 0], pixels[:, 1]] = False
        self._refresh_navigable(
            pixels[:, 0].min(), pixels[:, 0].max(), pixels[:, 1].min(), pixels[:, 1].max()
        )
        self.version += 1
        return True

    def _mark_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Set the (N, 2) pixels as obstacles; returns those that were not obstacles before."""
        rows, cols = self._mark_cells(pixels[:, 0], pixels[:, 1])
        return np.stack((rows, cols), axis=1)

    def _mark_cells(self, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Set the cells (rows[i], cols[i]) as obstacles, those off the map ignored; returns the rows and columns
        of those that were not obstacles before."""
        size = self.config.size_px
        inside = rows.astype(np.uint64) < size  # (negative rows wrap to huge values)
        inside &= cols.astype(np.uint64) < size
        cells = rows * size
        cells += cols
        if not inside.all():
            kept = np.flatnonzero(inside)
            rows, cols, cells = rows.take(kept), cols.take(kept), cells.take(kept)
        obstacles = self.obstacles.reshape(-1)
        fresh = np.flatnonzero(~obstacles.take(cells))
        if len(fresh) == 0:
            return rows[:0], cols[:0]
        rows, cols = rows.take(fresh), cols.take(fresh)
        obstacles[cells.take(fresh)] = True
        self._refresh_navigable(rows.min(), rows.max(), cols.min(), cols.max())
        self.version += 1
        return rows, cols

    def _refresh_navigable(self, r0: int, r1: int, c0: int, c1: int) -> None:
        pad = self.inflation_px
        size = self.config.size_px
        top, bottom = max(0, r0 - pad), min(size, r1 + pad + 1)
        left, right = max(0, c0 - pad), min(size, c1 + pad + 1)
        src_top, src_bottom = max(0, top - pad), min(size, bottom + pad)
        src_left, src_right = max(0, left - pad), min(size, right + pad)
        window = self.obstacles[src_top:src_bottom, src_left:src_right].astype(np.uint8)
        inner = (slice(top - src_top, bottom - src_top), slice(left - src_left, right - src_left))
        dilated = cv2.dilate(window, self._kernel, borderType=cv2.BORDER_CONSTANT, borderValue=(0,))
        self.navigable[top:bottom, left:right] = dilated[inner] == 0
        if self._vlfm:
            return
        thickened = cv2.dilate(window, THICKEN_KERNEL, borderType=cv2.BORDER_CONSTANT, borderValue=(0,))
        self._ray_blocking[top:bottom, left:right] = thickened[inner] > 0

    def reveal(self, camera_pose: np.ndarray, hfov_deg: float) -> None:
        """Grow the explored area by what the frame sees, with the configured explored_method."""
        self._views.append((camera_pose.copy(), hfov_deg))
        self._reveal(camera_pose, hfov_deg, self._fan)

    def _reveal(self, camera_pose: np.ndarray, hfov_deg: float, fan: RayFan) -> None:
        if self._vlfm:
            self._reveal_fog(camera_pose, hfov_deg, fan.max_len_px)
        else:
            self._reveal_rays(camera_pose, hfov_deg, fan)

    def explore_closer(self, range_m: float) -> None:
        """Make the explored area what every frame so far saw within `range_m` only (obstacles stay): cells
        seen only from farther become unexplored, so their frontiers come back. For a search that ended
        without finding its object: a detector misses at range what the full depth range marked as explored."""
        fan = RayFan(range_m * self.config.pixels_per_meter, RAY_STEP_PX)
        self.explored[:] = False
        self.explored_bounds = None
        for camera_pose, hfov_deg in self._views:
            self._reveal(camera_pose, hfov_deg, fan)
        self.version += 1

    def _grow_bounds(self, box: tuple[int, int, int, int]) -> None:
        old = self.explored_bounds or box
        self.explored_bounds = (
            min(old[0], box[0]),
            max(old[1], box[1]),
            min(old[2], box[2]),
            max(old[3], box[3]),
        )

    def _reveal_fog(self, camera_pose: np.ndarray, hfov_deg: float, max_len: float) -> None:
        """VLFM's explored-area update: add the fog-of-war reveal (dilated 3x3), drop non-navigable cells, and
        keep only the outer region that holds the camera (or is nearest to it) when the area has split."""
        camera = self.grid.world_to_pixel(camera_pose[:3, 3][None])[0]
        area = reveal_cone(
            self.navigable, (int(camera[0]), int(camera[1])), camera_yaw(camera_pose), hfov_deg, max_len
        )
        if area is not None:
            grown = cv2.dilate(area.mask, REVEAL_DILATION)
            x, y, w, h = cv2.boundingRect(grown)
            if w > 0:
                r0, c0 = area.row0 + y, area.col0 + x
                self.explored[r0 : r0 + h, c0 : c0 + w] |= grown[y : y + h, x : x + w].view(bool)
                self._grow_bounds((r0, r0 + h, c0, c0 + w))
                self.version += 1
        if self.explored_bounds is None:
            return
        r0, r1, c0, c1 = self.explored_bounds
        window = self.explored[r0:r1, c0:c1]
        window &= self.navigable[r0:r1, c0:c1]
        self._keep_camera_region(window, (r0, c0), (int(camera[0]), int(camera[1])))

    def _keep_camera_region(
        self, window: np.ndarray, origin: tuple[int, int], camera: tuple[int, int]
    ) -> None:
        """When the explored window (whose cell (0, 0) is map cell `origin`) holds several outer regions, keep
        (filled) the first that contains the camera cell, else the one nearest to it, as VLFM does."""
        regions, _ = cv2.findContours(window.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if len(regions) <= 1:
            return
        r0, c0 = origin
        point = (float(camera[1] - c0), float(camera[0] - r0))
        best, nearest = 0, np.inf
        for index, region in enumerate(regions):
            gap = cv2.pointPolygonTest(region, point, True)
            if gap >= 0:
                best = index
                break
            if abs(gap) < nearest:
                best, nearest = index, abs(gap)
        kept = np.zeros(window.shape, np.uint8)
        cv2.drawContours(kept, regions, best, (1,), -1)
        window[...] = kept.view(bool)
        x, y, w, h = cv2.boundingRect(regions[best])
        self.explored_bounds = (r0 + y, r0 + y + h, c0 + x, c0 + x + w)
        self.version += 1

    def _reveal_rays(self, camera_pose: np.ndarray, hfov_deg: float, fan: RayFan) -> None:
        """Mark as explored the cells that rays across the horizontal field of view reach before an obstacle."""
        origin = self.grid.world_to_pixel(camera_pose[:3, 3][None])[0].astype(np.float64)
        # Heading yaw points along world (x, z) = (-sin yaw, -cos yaw): +rows and -cols in the grid.
        down, left = fan.products(camera_yaw(camera_pose), hfov_deg)
        r0, r1, c0, c1 = sweep_rays(
            down,
            left,
            float(origin[0]),
            float(origin[1]),
            self._ray_blocking.reshape(-1),
            self.explored.reshape(-1),
            self.config.size_px,
        )
        if r0 >= 0:
            self._grow_bounds((r0, r1, c0, c1))
            self.version += 1

    def frontier_pixels(self) -> np.ndarray:
        """(N, 2) float (row, col) midpoints of the frontiers (cached until the map changes)."""
        if self._frontier_cache is None or self._frontier_cache[0] != self.version:
            self._frontier_cache = (self.version, self._detect_frontiers())
        return self._frontier_cache[1]

    def _detect_frontiers(self) -> np.ndarray:
        cfg = self.config
        ppm2 = cfg.pixels_per_meter**2
        if self._vlfm:
            return detect_contour_frontiers(
                self.navigable, self.explored, cfg.min_unexplored_area * ppm2, self.explored_bounds
            )
        return detect_frontiers(
            self.navigable,
            self.explored,
            min_frontier_px=round(cfg.min_frontier_size * cfg.pixels_per_meter),
            min_unexplored_px=round(cfg.min_unexplored_area * ppm2),
            bounds=self.explored_bounds,
        )

    def frontiers(self, y: float = 0.0) -> np.ndarray:
        """(N, 3) world points of the frontier midpoints at height y."""
        pixels = self.frontier_pixels()
        return self.grid.pixel_to_world(pixels, y) if len(pixels) else np.zeros((0, 3))

    def is_navigable(self, point: np.ndarray) -> bool:
        """Whether the world point's cell is inside the map and navigable."""
        px = self.grid.world_to_pixel(np.asarray(point)[None])
        return bool(self.grid.in_bounds(px)[0] and self.navigable[px[0, 0], px[0, 1]])


def _offsets(kernel: np.ndarray) -> np.ndarray:
    """(N, 2) (row, col) offsets of the cells an obstacle at (0, 0) sets when the map is dilated by `kernel`
    (cv2.dilate with the anchor at the kernel's centre: each set kernel cell, mirrored through the anchor)."""
    rows, cols = np.nonzero(kernel)
    return np.stack((kernel.shape[0] // 2 - rows, kernel.shape[1] // 2 - cols), axis=1).astype(np.int64)
