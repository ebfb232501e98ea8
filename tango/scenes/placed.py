"""What furnishing places: object records in world coordinates, the candidates they are made from, and the
geometry rules placement uses (which wall an object backs onto, free intervals along a wall, support surfaces)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import trimesh

from tango.scenes.layout import Rect


@dataclass(frozen=True)
class FurnishConfig:
    """Clearances for placement checks (metres)."""

    agent_radius: float = 0.18
    clearance: float = 0.07
    reach: float = 0.7
    door_zone_depth: float = 1.0
    grid_res: float = 0.05
    max_floor_fill: float = 0.45
    tries: int = 24


@dataclass
class PlacedObject:
    """One object instance in world coordinates; `support` is the object it stands on, if any.

    `size` is small/medium/large relative to the category's nominal size; `mount` is floor, wall or top.
    """

    id: int
    category: str
    room_id: int
    color: str
    size: str
    material: str | None
    mesh: trimesh.Trimesh
    mount: str
    yaw: float = 0.0
    support: PlacedObject | None = None
    transform: np.ndarray = field(default_factory=lambda: np.eye(4))
    surface_y: float = 0.0
    surface_local: Rect | None = None
    surface: Rect | None = None
    on_top: list[Rect] = field(default_factory=list)

    @cached_property
    def bounds(self) -> np.ndarray:
        """Axis-aligned bounds [[x, y, z] min, max] of the placed mesh."""
        vertices = np.asarray(self.mesh.vertices)
        return np.stack([vertices.min(axis=0), vertices.max(axis=0)])

    @property
    def support_id(self) -> int | None:
        return None if self.support is None else self.support.id

    @property
    def footprint(self) -> Rect:
        (x0, _, z0), (x1, _, z1) = self.bounds
        return Rect(float(x0), float(z0), float(x1), float(z1))


@dataclass
class Candidate:
    """An object built in its local frame, not yet placed."""

    category: str
    color: str
    size: str
    material: str | None
    local: trimesh.Trimesh

    @cached_property
    def bounds(self) -> np.ndarray:
        return np.asarray(self.local.bounds)


# Yaw (degrees) that turns an object's front (+z) away from each wall of a room's interior.
WALL_YAW: dict[str, float] = {"z0": 0.0, "z1": 180.0, "x0": 90.0, "x1": -90.0}


def wall_side(obj: PlacedObject) -> str:
    """The wall a wall-standing object's back is against, from its yaw."""
    return min(WALL_YAW, key=lambda s: abs((WALL_YAW[s] - obj.yaw + 180.0) % 360.0 - 180.0))


def free_intervals(lo: float, hi: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """[lo, hi] minus the union of the blocked intervals."""
    free, cursor = [], lo
    for a, b in sorted(blocked):
        if a > cursor:
            free.append((cursor, min(a, hi)))
        cursor = max(cursor, b)
    if cursor < hi:
        free.append((cursor, hi))
    return [(a, b) for a, b in free if b > a]


def yaw_matrix(yaw_deg: float) -> np.ndarray:
    """4x4 rotation about +y by `yaw_deg` degrees."""
    return trimesh.transformations.rotation_matrix(np.deg2rad(yaw_deg), [0, 1, 0])


# Surfaces other objects may stand on: (height above the floor, region in the supporting object's local frame).
def support_surface(category: str, local: trimesh.Trimesh) -> tuple[float, Rect] | None:
    (x0, _, z0), (x1, y1, z1) = local.bounds
    if category == "bed":
        return 0.52, Rect(x0 + 0.1, z0 + 0.12, x1 - 0.1, z0 + 0.6)
    if category in ("couch", "armchair"):
        return 0.5, Rect(x0 + 0.18, z0 + 0.2, x1 - 0.18, z0 + 0.62)
    if category in (
        "table",
        "desk",
        "nightstand",
        "coffee table",
        "tv stand",
        "counter",
        "cabinet",
    ):
        return float(y1), Rect(x0 + 0.04, z0 + 0.04, x1 - 0.04, z1 - 0.04)
    return None
