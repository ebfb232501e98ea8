"""Furnishing rooms: places object instances where they belong while keeping every object reachable.

Floor objects stand against walls or in a room's open middle, never overlapping one another or a doorway's
approach; small objects sit on the surfaces of others; decorations hang on walls. Each placement is kept
only if a disc agent can still cross the room between its doorways and get within reach of every object.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import trimesh
from scipy import ndimage

from tango.scenes.layout import Door, FloorPlan, Rect, Room
from tango.scenes.objects import CATEGORIES, build_object
from tango.scenes.parts import Size
from tango.scenes.placed import (
    WALL_YAW,
    Candidate,
    FurnishConfig,
    PlacedObject,
    free_intervals,
    support_surface,
    yaw_matrix,
)


class RoomFurnisher:
    """Places objects in one room, checking overlaps, doorways and reachability after every placement."""

    def __init__(
        self, plan: FloorPlan, room: Room, rng: np.random.Generator, first_id: int, config: FurnishConfig
    ):
        self.plan, self.room, self.rng, self.config = plan, room, rng, config
        self.interior = plan.interior(room.id)
        self.next_id = first_id
        self.objects: list[PlacedObject] = []
        self.door_zones = [self._door_zone(d) for d in plan.doors_of(room.id)]
        self.door_entries = [self._door_entry(d) for d in plan.doors_of(room.id)]
        res = config.grid_res
        self.nx = int(np.ceil(self.interior.width / res))
        self.nz = int(np.ceil(self.interior.depth / res))

    # ---- geometry of doorways ---------------------------------------------------------------------------

    def _inward(self, door: Door) -> float:
        """+1 when the room lies on the positive side of the door's wall line, else -1."""
        r = self.room.rect
        lo = r.x0 if door.axis == "x" else r.z0
        return 1.0 if abs(lo - door.coord) < 1e-6 else -1.0

    def _door_zone(self, door: Door) -> Rect:
        s = self._inward(door)
        half = door.width / 2 + 0.15
        a, b = sorted((door.coord, door.coord + s * self.config.door_zone_depth))
        return (
            Rect(a, door.center - half, b, door.center + half)
            if door.axis == "x"
            else Rect(door.center - half, a, door.center + half, b)
        )

    def _door_entry(self, door: Door) -> tuple[float, float]:
        depth = self.plan.wall_thickness / 2 + self.config.agent_radius + 0.15
        p = door.coord + self._inward(door) * depth
        return (p, door.center) if door.axis == "x" else (door.center, p)

    # ---- reachability -----------------------------------------------------------------------------------

    def _cell(self, x: float, z: float) -> tuple[int, int]:
        res = self.config.grid_res
        return int((z - self.interior.z0) / res), int((x - self.interior.x0) / res)

    def _rect_cells(self, r: Rect) -> tuple[slice, slice]:
        res = self.config.grid_res
        i0 = max(0, int(np.floor((r.z0 - self.interior.z0) / res)))
        i1 = min(self.nz, int(np.ceil((r.z1 - self.interior.z0) / res)))
        j0 = max(0, int(np.floor((r.x0 - self.interior.x0) / res)))
        j1 = min(self.nx, int(np.ceil((r.x1 - self.interior.x0) / res)))
        return slice(i0, max(i0, i1)), slice(j0, max(j0, j1))

    def reachable(self, objects: list[PlacedObject]) -> bool:
        """Doorways connected to each other and every object within reach of the connected free space."""
        c = self.config
        occupied = np.zeros((self.nz + 2, self.nx + 2), dtype=bool)
        occupied[0, :] = occupied[-1, :] = occupied[:, 0] = occupied[:, -1] = True
        inner = occupied[1:-1, 1:-1]
        for obj in objects:
            if obj.mount == "floor":
                inner[self._rect_cells(obj.footprint)] = True
        free = ndimage.distance_transform_edt(~occupied) * c.grid_res > c.agent_radius + c.clearance
        labels, _ = ndimage.label(free[1:-1, 1:-1])
        entry_labels = set()
        for x, z in self.door_entries:
            i, j = self._cell(x, z)
            if not (0 <= i < self.nz and 0 <= j < self.nx) or labels[i, j] == 0:
                return False
            entry_labels.add(int(labels[i, j]))
        if len(entry_labels) != 1:
            return False
        region = labels == entry_labels.pop()
        for obj in objects:
            fp = obj.footprint
            grown = Rect(fp.x0 - c.reach, fp.z0 - c.reach, fp.x1 + c.reach, fp.z1 + c.reach)
            if not region[self._rect_cells(grown)].any():
                return False
        return True

    # ---- candidates ---------------------------------------------------------------------------------------

    def make(
        self,
        category: str,
        scale: tuple[float, float] = (0.85, 1.15),
        base: Size | None = None,
        stretch: tuple[float, float] = (1.0, 1.0),
    ) -> Candidate:
        """A new instance of `category` with random colour, material and size: nominal size `base` (the
        category's by default) scaled uniformly by `scale` and in width only by `stretch`."""
        spec = CATEGORIES[category]
        nominal = base or spec.size
        s = float(self.rng.uniform(*scale))
        jitter = self.rng.uniform(0.95, 1.05, size=3)
        jitter[0] *= float(self.rng.uniform(*stretch))
        if abs(nominal.w - nominal.d) < 1e-6:
            jitter[1] = jitter[0]
        size = Size(nominal.w * s * jitter[0], nominal.d * s * jitter[1], nominal.h * s * jitter[2])
        colour = str(self.rng.choice(spec.colors))
        material = str(self.rng.choice(spec.materials)) if spec.materials else None
        ratio = (size.w * size.d * size.h / (nominal.w * nominal.d * nominal.h)) ** (1.0 / 3.0)
        label = "small" if ratio < 0.94 else "large" if ratio > 1.06 else "medium"
        return Candidate(category, colour, label, material, build_object(category, size, colour, self.rng))

    def _commit(
        self, cand: Candidate, transform: np.ndarray, mount: str, support: PlacedObject | None = None
    ) -> PlacedObject | None:
        mesh = cand.local.copy()
        mesh.apply_transform(transform)
        obj = PlacedObject(
            self.next_id, cand.category, self.room.id, cand.color, cand.size, cand.material, mesh, mount
        )
        obj.yaw = float(np.rad2deg(np.arctan2(transform[0, 2], transform[2, 2])))
        obj.support = support
        if not self._valid(obj, support):
            return None
        surface = support_surface(cand.category, cand.local)
        obj.transform = transform
        if surface is not None:
            height, region = surface
            obj.surface_local = region
            corners = np.array([[region.x0, 0, region.z0, 1], [region.x1, 0, region.z1, 1]]) @ transform.T
            obj.surface_y = float(transform[1, 3] + height)
            obj.surface = Rect(
                float(min(corners[:, 0])),
                float(min(corners[:, 2])),
                float(max(corners[:, 0])),
                float(max(corners[:, 2])),
            )
        self.objects.append(obj)
        self.next_id += 1
        return obj

    def _valid(self, obj: PlacedObject, support: PlacedObject | None) -> bool:
        fp = obj.footprint
        if not self.interior.contains(fp, eps=0.02):
            return False
        if obj.mount == "top":
            assert support is not None and support.surface is not None
            if not support.surface.contains(fp, eps=0.01) or any(
                fp.overlaps(o, 0.02) for o in support.on_top
            ):
                return False
            if not self.reachable(self.objects + [obj]):
                return False
            support.on_top.append(fp)
            return True
        if any(fp.overlaps(z) for z in self.door_zones):
            return False
        if obj.mount == "wall":
            bottom = float(obj.bounds[0][1])
            for other in self.objects:
                if other.mount == "wall" and fp.overlaps(other.footprint, 0.1):
                    return False
                if (
                    other.mount != "wall"
                    and fp.overlaps(other.footprint)
                    and other.bounds[1][1] > bottom - 0.08
                ):
                    return False
        else:
            floor = [o.footprint for o in self.objects if o.mount == "floor"]
            if any(fp.overlaps(o, 0.04) for o in floor):
                return False
            if sum(r.area for r in floor) + fp.area > self.config.max_floor_fill * self.interior.area:
                return False
        return self.reachable(self.objects + [obj])

    # ---- placement strategies ------------------------------------------------------------------------------

    def _wall_transform(
        self, cand: Candidate, side: str, t: float, y: float = 0.0, gap: float = 0.01
    ) -> np.ndarray:
        """Back of the object against wall `side`, at fraction t of the free run along that wall."""
        rot = yaw_matrix(WALL_YAW[side])
        (bx0, _, bz0), (bx1, _, bz1) = (
            trimesh.transform_points(cand.bounds, rot).min(0),
            trimesh.transform_points(cand.bounds, rot).max(0),
        )
        r = self.interior
        if side in ("z0", "z1"):
            z = r.z0 + gap - bz0 if side == "z0" else r.z1 - gap - bz1
            x = (r.x0 - bx0) + t * ((r.x1 - bx1) - (r.x0 - bx0))
        else:
            x = r.x0 + gap - bx0 if side == "x0" else r.x1 - gap - bx1
            z = (r.z0 - bz0) + t * ((r.z1 - bz1) - (r.z0 - bz0))
        return trimesh.transformations.translation_matrix((x, y, z)) @ rot

    def _sides(self, prefer: str | None = None) -> list[str]:
        sides = [str(s) for s in self.rng.permutation(list(WALL_YAW))]
        if prefer is not None:
            sides.remove(prefer)
            sides.insert(0, prefer)
        return sides

    def against_wall(
        self, cand: Candidate, prefer: str | None = None, y: float = 0.0, mount: str = "floor"
    ) -> PlacedObject | None:
        """Stand (or hang, with mount='wall' at height y) `cand` against a wall, in a free stretch of it."""
        for side in self._sides(prefer):
            base = self._wall_transform(cand, side, 0.0, y)
            fp = Rect(
                *trimesh.transform_points(cand.bounds, base)[:, [0, 2]].min(0),
                *trimesh.transform_points(cand.bounds, base)[:, [0, 2]].max(0),
            )
            along_x = side in ("z0", "z1")
            lo, hi = (self.interior.x0, self.interior.x1) if along_x else (self.interior.z0, self.interior.z1)
            start0, length = (fp.x0, fp.width) if along_x else (fp.z0, fp.depth)
            band = (
                Rect(self.interior.x0, fp.z0, self.interior.x1, fp.z1)
                if along_x
                else Rect(fp.x0, self.interior.z0, fp.x1, self.interior.z1)
            )
            blocked = [
                (r.x0, r.x1) if along_x else (r.z0, r.z1)
                for r in self._obstacles(mount, y)
                if r.overlaps(band)
            ]
            free = free_intervals(lo, hi, blocked)
            fits = [(a, b) for a, b in free if b - a >= length]
            for _ in range(3 if fits else 0):
                a, b = fits[int(self.rng.integers(len(fits)))]
                u = (
                    float(self.rng.choice([0.0, 1.0]))
                    if self.rng.random() < 0.35
                    else float(self.rng.uniform(0, 1))
                )
                shift = a + u * (b - a - length) - start0
                move = trimesh.transformations.translation_matrix(
                    (shift, 0.0, 0.0) if along_x else (0.0, 0.0, shift)
                )
                obj = self._commit(cand, move @ base, mount)
                if obj is not None:
                    return obj
        return None

    def _obstacles(self, mount: str, bottom: float) -> list[Rect]:
        """Footprints (grown by the placement gap) a new wall-side object of this mount must keep clear of."""
        gap = 0.1 if mount == "wall" else 0.05
        rects = list(self.door_zones)
        for o in self.objects:
            if mount == "floor" and o.mount != "floor":
                continue
            if mount == "wall" and o.mount != "wall" and o.bounds[1][1] <= bottom - 0.08:
                continue
            f = o.footprint
            rects.append(Rect(f.x0 - gap, f.z0 - gap, f.x1 + gap, f.z1 + gap))
        return rects

    def beside(
        self, anchor: PlacedObject, cand: Candidate, side: str, right: bool, gap: float = 0.05
    ) -> PlacedObject | None:
        """Against the same wall as `anchor`, flush to its left or right."""
        base = self._wall_transform(cand, side, 0.0)
        fp_anchor = anchor.footprint
        corners = trimesh.transform_points(cand.bounds, base)
        fp = Rect(*corners[:, [0, 2]].min(0), *corners[:, [0, 2]].max(0))
        if side in ("z0", "z1"):
            dx = (fp_anchor.x1 + gap - fp.x0) if right else (fp_anchor.x0 - gap - fp.x1)
            shift = (dx, 0.0, 0.0)
        else:
            dz = (fp_anchor.z1 + gap - fp.z0) if right else (fp_anchor.z0 - gap - fp.z1)
            shift = (0.0, 0.0, dz)
        return self._commit(cand, trimesh.transformations.translation_matrix(shift) @ base, "floor")

    def in_front(
        self, anchor: PlacedObject, cand: Candidate, side: str, gap: float, facing_anchor: bool
    ) -> PlacedObject | None:
        """Centred in front of a wall object (coffee table before a couch, chair before a desk)."""
        yaw = WALL_YAW[side] + (180.0 if facing_anchor else 0.0)
        rot = yaw_matrix(yaw)
        pts = trimesh.transform_points(cand.bounds, rot)
        (bx0, _, bz0), (bx1, _, bz1) = pts.min(0), pts.max(0)
        a = anchor.footprint
        cx, cz = (a.x0 + a.x1) / 2, (a.z0 + a.z1) / 2
        if side == "z0":
            pos = (cx - (bx0 + bx1) / 2, 0.0, a.z1 + gap - bz0)
        elif side == "z1":
            pos = (cx - (bx0 + bx1) / 2, 0.0, a.z0 - gap - bz1)
        elif side == "x0":
            pos = (a.x1 + gap - bx0, 0.0, cz - (bz0 + bz1) / 2)
        else:
            pos = (a.x0 - gap - bx1, 0.0, cz - (bz0 + bz1) / 2)
        return self._commit(cand, trimesh.transformations.translation_matrix(pos) @ rot, "floor")

    def in_middle(self, cand: Candidate) -> PlacedObject | None:
        """Free-standing in the room's open middle, axis-aligned."""
        r = self.interior
        for _ in range(self.config.tries):
            yaw = float(self.rng.choice([0.0, 90.0]))
            rot = yaw_matrix(yaw)
            pts = trimesh.transform_points(cand.bounds, rot)
            half_w, half_d = (pts.max(0) - pts.min(0))[[0, 2]] / 2
            lo_x, hi_x = r.x0 + half_w + 0.7, r.x1 - half_w - 0.7
            lo_z, hi_z = r.z0 + half_d + 0.7, r.z1 - half_d - 0.7
            if lo_x > hi_x or lo_z > hi_z:
                continue
            x, z = float(self.rng.uniform(lo_x, hi_x)), float(self.rng.uniform(lo_z, hi_z))
            centre = (pts.max(0) + pts.min(0)) / 2
            obj = self._commit(
                cand,
                trimesh.transformations.translation_matrix((x - centre[0], 0.0, z - centre[2])) @ rot,
                "floor",
            )
            if obj is not None:
                return obj
        return None

    def around(
        self, table: PlacedObject, make_chair: Callable[[], Candidate], count: int
    ) -> list[PlacedObject]:
        """Chairs facing a table from its sides, spread along each side."""
        fp = table.footprint
        slots: list[tuple[float, float, float]] = []
        long_x = fp.width >= fp.depth
        n_long = 2 if (fp.width if long_x else fp.depth) > 1.3 else 1
        for k in range(n_long):
            f = (k + 0.5) / n_long
            if long_x:
                x = fp.x0 + f * fp.width
                slots += [(x, fp.z0 - 0.3, 0.0), (x, fp.z1 + 0.3, 180.0)]
            else:
                z = fp.z0 + f * fp.depth
                slots += [(fp.x0 - 0.3, z, 90.0), (fp.x1 + 0.3, z, -90.0)]
        cz, cx = (fp.z0 + fp.z1) / 2, (fp.x0 + fp.x1) / 2
        slots += (
            [(fp.x0 - 0.3, cz, 90.0), (fp.x1 + 0.3, cz, -90.0)]
            if long_x
            else [(cx, fp.z0 - 0.3, 0.0), (cx, fp.z1 + 0.3, 180.0)]
        )
        placed: list[PlacedObject] = []
        for x, z, yaw in slots:
            if len(placed) >= count:
                break
            cand = make_chair()
            rot = yaw_matrix(yaw)
            pts = trimesh.transform_points(cand.bounds, rot)
            centre = (pts.max(0) + pts.min(0)) / 2
            # push the chair out so its footprint clears the table's
            ext = (pts.max(0) - pts.min(0)) / 2
            ox = x + (np.sign(x - cx) * (ext[0] - 0.24) if abs(x - cx) > fp.width / 2 else 0.0)
            oz = z + (np.sign(z - cz) * (ext[2] - 0.24) if abs(z - cz) > fp.depth / 2 else 0.0)
            obj = self._commit(
                cand,
                trimesh.transformations.translation_matrix((ox - centre[0], 0.0, oz - centre[2])) @ rot,
                "floor",
            )
            if obj is not None:
                placed.append(obj)
        return placed

    def on_top(
        self, support: PlacedObject | None, cand: Candidate, spots: list[tuple[float, float]] | None = None
    ) -> PlacedObject | None:
        """Stand `cand` on `support`'s surface, facing the same way as the support; `spots` are fractions
        (across, front-back) of the surface in the support's own frame, tried before random ones."""
        if support is None or support.surface_local is None:
            return None
        rot = yaw_matrix(support.yaw)
        pts = trimesh.transform_points(cand.bounds, rot)
        centre = (pts.max(0) + pts.min(0)) / 2
        s = support.surface_local
        fractions = (spots or []) + [
            (float(self.rng.uniform(0.1, 0.9)), float(self.rng.uniform(0.1, 0.9))) for _ in range(12)
        ]
        for fx, fz in fractions:
            x, _, z = trimesh.transform_points(
                np.array([[s.x0 + fx * s.width, 0.0, s.z0 + fz * s.depth]]), support.transform
            )[0]
            transform = (
                trimesh.transformations.translation_matrix((x - centre[0], support.surface_y, z - centre[2]))
                @ rot
            )
            obj = self._commit(cand, transform, "top", support)
            if obj is not None:
                return obj
        return None

    def on_wall(
        self, cand: Candidate, height: tuple[float, float], prefer: str | None = None
    ) -> PlacedObject | None:
        """Hang `cand` on a wall with its bottom at a random height in `height`."""
        return self.against_wall(cand, prefer, y=float(self.rng.uniform(*height)), mount="wall")
