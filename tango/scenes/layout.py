"""Floor plans: axis-aligned rectangular rooms from a recursive split, typed, joined by doorways, plus wall boxes.

Rooms tile a rectangular footprint exactly; walls of thickness `wall_thickness` are centred on room edges,
so a room's usable interior is its rectangle shrunk by half a wall on every side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

ROOM_TYPES = ("kitchen", "living room", "bedroom", "bathroom", "office", "dining room", "hallway")


@dataclass(frozen=True)
class Rect:
    """Axis-aligned rectangle in the xz plane."""

    x0: float
    z0: float
    x1: float
    z1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def depth(self) -> float:
        return self.z1 - self.z0

    @property
    def area(self) -> float:
        return self.width * self.depth

    def shrink(self, margin: float) -> Rect:
        return Rect(self.x0 + margin, self.z0 + margin, self.x1 - margin, self.z1 - margin)

    def overlaps(self, other: Rect, gap: float = 0.0) -> bool:
        """True when the rectangles, each grown by gap / 2, share interior area."""
        return (
            self.x0 < other.x1 + gap
            and other.x0 < self.x1 + gap
            and self.z0 < other.z1 + gap
            and other.z0 < self.z1 + gap
        )

    def contains(self, other: Rect, eps: float = 1e-6) -> bool:
        return (
            other.x0 >= self.x0 - eps
            and other.z0 >= self.z0 - eps
            and other.x1 <= self.x1 + eps
            and other.z1 <= self.z1 + eps
        )


@dataclass(frozen=True)
class Room:
    """A typed room: its rectangle runs to the wall centre lines."""

    id: int
    type: str
    rect: Rect


@dataclass(frozen=True)
class Door:
    """A doorway in the wall on line `axis` = `coord` (axis 'x': wall at x = coord), centred at `center`."""

    rooms: tuple[int, int]
    axis: str
    coord: float
    center: float
    width: float


@dataclass(frozen=True)
class WallBox:
    """One straight wall piece as an axis-aligned box: xz rectangle and height."""

    rect: Rect
    height: float


@dataclass
class FloorPlan:
    """Rooms, doorways and wall boxes of one apartment."""

    rooms: list[Room]
    doors: list[Door]
    walls: list[WallBox] = field(default_factory=list)
    wall_thickness: float = 0.1
    wall_height: float = 2.5

    def interior(self, room_id: int) -> Rect:
        return self.rooms[room_id].rect.shrink(self.wall_thickness / 2)

    def doors_of(self, room_id: int) -> list[Door]:
        return [d for d in self.doors if room_id in d.rooms]

    def wall_faces(self, room_id: int, depth: float) -> list[Rect]:
        """Thin rectangles lining the inside of a room's walls (for a per-room paint), doorways left open."""
        r = self.interior(room_id)
        doors = self.doors_of(room_id)
        faces: list[Rect] = []
        for axis, coord, lo, hi, inward in (
            ("x", self.rooms[room_id].rect.x0, r.z0, r.z1, 1.0),
            ("x", self.rooms[room_id].rect.x1, r.z0, r.z1, -1.0),
            ("z", self.rooms[room_id].rect.z0, r.x0, r.x1, 1.0),
            ("z", self.rooms[room_id].rect.z1, r.x0, r.x1, -1.0),
        ):
            face = coord + inward * self.wall_thickness / 2
            a, b = sorted((face, face + inward * depth))
            cuts = [
                (d.center - d.width / 2, d.center + d.width / 2)
                for d in doors
                if d.axis == axis and abs(d.coord - coord) < 1e-6
            ]
            spans = [(lo, hi)]
            for c0, c1 in cuts:
                spans = [
                    p for u, v in spans for p in ((u, min(v, c0)), (max(u, c1), v)) if p[1] - p[0] > 1e-6
                ]
            faces += [Rect(a, u, b, v) if axis == "x" else Rect(u, a, v, b) for u, v in spans]
        return faces


@dataclass(frozen=True)
class LayoutConfig:
    """Sizes that shape a floor plan (metres)."""

    min_rooms: int = 4
    max_rooms: int = 8
    room_area: float = 16.0
    min_room_side: float = 2.8
    door_width: float = 1.0
    wall_thickness: float = 0.1
    wall_height: float = 2.5
    corridor_width: float = 0.0
    """> 0: a corridor (a hallway this wide) runs the footprint's length and most rooms open onto it."""


def _snap(v: float, step: float = 0.1) -> float:
    return round(round(v / step) * step, 6)


def _split(rects: list[Rect], n: int, min_side: float, rng: np.random.Generator) -> list[Rect]:
    """Split the largest splittable rectangle along its longer side until there are n."""
    rects = list(rects)
    while len(rects) < n:
        order = sorted(range(len(rects)), key=lambda i: -rects[i].area)
        for i in order:
            r = rects[i]
            along_x = r.width >= r.depth
            length = r.width if along_x else r.depth
            if length < 2 * min_side:
                continue
            lo, hi = max(min_side, 0.35 * length), min(length - min_side, 0.65 * length)
            cut = _snap(float(rng.uniform(lo, hi)))
            if along_x:
                a, b = Rect(r.x0, r.z0, r.x0 + cut, r.z1), Rect(r.x0 + cut, r.z0, r.x1, r.z1)
            else:
                a, b = Rect(r.x0, r.z0, r.x1, r.z0 + cut), Rect(r.x0, r.z0 + cut, r.x1, r.z1)
            rects[i : i + 1] = [a, b]
            break
        else:
            raise ValueError(f"cannot split a footprint into {n} rooms with sides >= {min_side} m")
    return rects


def _shared_edge(a: Rect, b: Rect) -> tuple[str, float, float, float] | None:
    """The wall line two rooms share: (axis, coord, lo, hi) or None."""
    eps = 1e-6
    for axis, (a_hi, b_lo, a_lo, b_hi) in (("x", (a.x1, b.x0, a.x0, b.x1)), ("z", (a.z1, b.z0, a.z0, b.z1))):
        if abs(a_hi - b_lo) < eps or abs(b_hi - a_lo) < eps:
            coord = a_hi if abs(a_hi - b_lo) < eps else a_lo
            lo, hi = (max(a.z0, b.z0), min(a.z1, b.z1)) if axis == "x" else (max(a.x0, b.x0), min(a.x1, b.x1))
            if hi - lo > eps:
                return axis, coord, lo, hi
    return None


def _assign_types(
    rects: list[Rect], degree: list[int], rng: np.random.Generator, corridor: int | None = None
) -> list[str]:
    """Largest room is the living room, smallest the bathroom; kitchen and bedroom always exist; the corridor
    (when there is one) is a hallway and takes no part in the ranking."""
    n = len(rects)
    ranked = [i for i in range(n) if i != corridor]
    by_area = sorted(ranked, key=lambda i: rects[i].area)
    types: list[str | None] = [None] * n
    if corridor is not None:
        types[corridor] = "hallway"
    types[by_area[-1]] = "living room"
    types[by_area[0]] = "bathroom"
    extras = ["kitchen", "bedroom"] + list(
        rng.permutation(["bedroom", "office", "dining room", "hallway", "bathroom", "bedroom"])
    )
    free = [i for i in range(n) if types[i] is None]
    while len(free) > len(extras):  # homes of more than eight rooms: more of the rooms a large home repeats
        extras += list(rng.permutation(["bedroom", "office", "bathroom", "dining room"]))
    wanted = [str(t) for t in extras[: len(free)]]
    if "hallway" in wanted:
        hub = max(free, key=lambda i: (degree[i], -rects[i].area))
        types[hub] = "hallway"
        free.remove(hub)
        wanted.remove("hallway")
    for i, t in zip(rng.permutation(free), wanted):
        types[int(i)] = t
    return [str(t) for t in types]


def _connect(
    n: int,
    edges: dict[tuple[int, int], tuple[str, float, float, float]],
    start: int,
    rng: np.random.Generator,
    hub: int | None = None,
) -> list[tuple[int, int]]:
    """A random spanning tree over the room adjacency graph grown from `start`, plus a few loops; with a `hub`
    (the corridor), every room that shares a long enough wall with it opens onto it first."""
    chosen: list[tuple[int, int]] = sorted(e for e in edges if hub is not None and hub in e)
    seen = {start if hub is None else hub, *(i for e in chosen for i in e)}
    frontier = [e for e in edges if e not in chosen and (e[0] in seen or e[1] in seen)]
    while frontier:
        e = frontier.pop(int(rng.integers(len(frontier))))
        new = e[1] if e[0] in seen else e[0]
        if new in seen:
            continue
        seen.add(new)
        chosen.append(e)
        frontier.extend(f for f in edges if new in f and f not in chosen)
    if len(seen) != n:
        raise ValueError("rooms are not all reachable through doorways")
    return chosen


def _walls(rooms: list[Room], doors: list[Door], t: float, height: float) -> list[WallBox]:
    """Union the room edges per wall line, extend them to close corners, cut the doorways out."""
    lines: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for room in rooms:
        r = room.rect
        lines.setdefault(("x", r.x0), []).append((r.z0, r.z1))
        lines.setdefault(("x", r.x1), []).append((r.z0, r.z1))
        lines.setdefault(("z", r.z0), []).append((r.x0, r.x1))
        lines.setdefault(("z", r.z1), []).append((r.x0, r.x1))
    walls: list[WallBox] = []
    for (axis, coord), spans in sorted(lines.items()):
        merged: list[list[float]] = []
        for lo, hi in sorted(spans):
            if merged and lo <= merged[-1][1] + 1e-6:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        cuts = sorted(
            (d.center - d.width / 2, d.center + d.width / 2)
            for d in doors
            if d.axis == axis and abs(d.coord - coord) < 1e-6
        )
        for lo, hi in merged:
            pieces = [(lo - t / 2, hi + t / 2)]
            for c0, c1 in cuts:
                pieces = [
                    p for a, b in pieces for p in ((a, min(b, c0)), (max(a, c1), b)) if p[1] - p[0] > 1e-6
                ]
            for a, b in pieces:
                rect = (
                    Rect(coord - t / 2, a, coord + t / 2, b)
                    if axis == "x"
                    else Rect(a, coord - t / 2, b, coord + t / 2)
                )
                walls.append(WallBox(rect, height))
    return walls


def _rooms_and_corridor(
    width: float, depth: float, n: int, config: LayoutConfig, rng: np.random.Generator
) -> tuple[list[Rect], int | None]:
    """n room rectangles tiling width x depth (the last one the corridor, when the config has one)."""
    if config.corridor_width <= 0:
        return _split([Rect(0.0, 0.0, width, depth)], n, config.min_room_side, rng), None
    z0 = _snap((depth - config.corridor_width) / 2)
    z1 = _snap(z0 + config.corridor_width)
    north = (n - 1) // 2
    rects = _split([Rect(0.0, 0.0, width, z0)], north, config.min_room_side, rng)
    rects += _split([Rect(0.0, z1, width, depth)], n - 1 - north, config.min_room_side, rng)
    return rects + [Rect(0.0, z0, width, z1)], n - 1


def generate_floor_plan(rng: np.random.Generator, config: LayoutConfig) -> FloorPlan:
    """A connected floor plan of min_rooms..max_rooms typed rooms (a corridor counts as one); every room
    reachable through doorways of `door_width`."""
    door_margin = 0.25
    for _attempt in range(50):
        n = int(rng.integers(config.min_rooms, config.max_rooms + 1))
        area = n * config.room_area * float(rng.uniform(0.9, 1.15))
        aspect = float(rng.uniform(1.1, 1.6))
        width = _snap(float(np.sqrt(area * aspect)))
        depth = _snap(area / width)
        try:
            rects, corridor = _rooms_and_corridor(width, depth, n, config, rng)
        except ValueError:
            continue
        rects = [Rect(r.x0 - width / 2, r.z0 - depth / 2, r.x1 - width / 2, r.z1 - depth / 2) for r in rects]
        rects = [Rect(*(round(v, 6) for v in (r.x0, r.z0, r.x1, r.z1))) for r in rects]
        edges = {}
        for i in range(n):
            for j in range(i + 1, n):
                shared = _shared_edge(rects[i], rects[j])
                if (
                    shared
                    and shared[3] - shared[2] >= config.door_width + 2 * door_margin + config.wall_thickness
                ):
                    edges[(i, j)] = shared
        degree = [sum(1 for e in edges if i in e) for i in range(n)]
        types = _assign_types(rects, degree, rng, corridor)
        try:
            chosen = _connect(n, edges, types.index("living room"), rng, corridor)
        except ValueError:
            continue
        extra = [e for e in edges if e not in chosen and "bathroom" not in (types[e[0]], types[e[1]])]
        chosen += [e for e in extra if rng.random() < 0.3]
        rooms = [Room(i, types[i], rects[i]) for i in range(n)]
        doors = []
        for i, j in sorted(chosen):
            axis, coord, lo, hi = edges[(i, j)]
            half = config.door_width / 2 + door_margin + config.wall_thickness / 2
            center = _snap(float(rng.uniform(lo + half, hi - half)), 0.05)
            doors.append(Door((i, j), axis, coord, center, config.door_width))
        walls = _walls(rooms, doors, config.wall_thickness, config.wall_height)
        return FloorPlan(rooms, doors, walls, config.wall_thickness, config.wall_height)
    raise ValueError("could not generate a connected floor plan in 50 attempts")
