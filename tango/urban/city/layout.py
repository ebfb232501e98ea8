"""The procedural district: a grid of blocks between named streets, sidewalk rings, zebra crossings, two
arterials that can only be crossed by footbridges (stairs up, a deck over the road, stairs down), a sloping
ground plane, buildings with one shop per street face, a park, a plaza and landmarks.

Local frame: x east, y north, metres, origin at the south-west street intersection, registered to WGS84 at
`origin` (LocalFrame). Everything is axis-aligned rectangles, so the walkable raster, the 3D scene and the map
are drawn from the same geometry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tango.urban.city.names import CATEGORIES, LANDMARKS, NAME_WORDS, STREET_NAMES
from tango.urban.geo import LocalFrame

LAYOUT_VERSION = "district-v1"


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass(frozen=True)
class Params:
    """Sizes in metres: blocks per side, block size (road edge to road edge), road, sidewalk, stairs."""

    blocks: int = 5
    block: float = 64.0
    road: float = 14.0
    sidewalk: float = 4.0
    stair_run: float = 12.0
    deck_height: float = 5.5
    crossing_keep: float = 0.8

    @property
    def pitch(self) -> float:
        return self.block + self.road


@dataclass(frozen=True)
class Road:
    name: str
    horizontal: bool  # runs east-west (a line of constant y)
    coord: float
    arterial: bool


@dataclass(frozen=True)
class Shop:
    name: str
    category: str
    street: str
    facade: tuple[tuple[float, float], tuple[float, float]]  # facade segment the sign hangs on
    normal: tuple[float, float]  # outward unit normal of the facade
    entrance: tuple[float, float]  # on the pavement in front of the shop
    label_anchor: tuple[float, float]  # inside the footprint: where the map prints the name


@dataclass(frozen=True)
class Building:
    rect: Rect
    height: float
    color: tuple[int, int, int]
    name: str = ""


@dataclass(frozen=True)
class Crossing:
    rect: Rect
    street: str


@dataclass(frozen=True)
class Footbridge:
    street: str
    horizontal_road: bool
    deck: Rect
    stairs: tuple[Rect, Rect]
    top_edge: float  # x (horizontal road) or y (vertical road) where both flights reach the deck
    run_sign: float  # +1: the flights descend towards larger x/y from top_edge
    railings: tuple[Rect, Rect]
    planters: tuple[Rect, Rect]


@dataclass(frozen=True)
class Landmark:
    name: str
    kind: str
    footprint: Rect
    height: float


@dataclass
class District:
    seed: int
    origin: tuple[float, float]
    params: Params
    slope: tuple[float, float]
    roads: list[Road] = field(default_factory=list)
    blocks: dict[tuple[int, int], Rect] = field(default_factory=dict)
    sidewalks: list[tuple[Rect, str]] = field(default_factory=list)
    forecourts: list[Rect] = field(default_factory=list)
    buildings: list[Building] = field(default_factory=list)
    shops: list[Shop] = field(default_factory=list)
    crossings: list[Crossing] = field(default_factory=list)
    footbridges: list[Footbridge] = field(default_factory=list)
    landmarks: list[Landmark] = field(default_factory=list)
    parks: list[tuple[Rect, str]] = field(default_factory=list)
    plazas: list[tuple[Rect, str]] = field(default_factory=list)
    trees: list[tuple[float, float]] = field(default_factory=list)

    @property
    def frame(self) -> LocalFrame:
        return LocalFrame(*self.origin)

    @property
    def bounds(self) -> Rect:
        p = self.params
        return Rect(
            -p.road / 2, -p.road / 2, p.blocks * p.pitch + p.road / 2, p.blocks * p.pitch + p.road / 2
        )

    def ground(self, x: float, y: float) -> float:
        """Ground height (metres) of the sloping plane at a local point."""
        return self.slope[0] * x + self.slope[1] * y

    def road(self, horizontal: bool, index: int) -> Road:
        return [r for r in self.roads if r.horizontal == horizontal][index]

    def shop(self, name: str) -> Shop:
        return next(s for s in self.shops if s.name == name)


def _block_rect(params: Params, i: int, j: int) -> Rect:
    half = params.road / 2
    return Rect(
        i * params.pitch + half,
        j * params.pitch + half,
        (i + 1) * params.pitch - half,
        (j + 1) * params.pitch - half,
    )


def _crossings(district: District, rng: np.random.Generator) -> None:
    """Zebra crossings on each road arm next to an intersection, except across the arterials."""
    p = district.params
    half, n = p.road / 2, p.blocks
    for i in range(n + 1):
        for j in range(n + 1):
            cx, cy = i * p.pitch, j * p.pitch
            horizontal, vertical = district.road(True, j), district.road(False, i)
            arms = []
            if 1 <= j <= n - 1 and not horizontal.arterial:  # across the east-west road, east and west arms
                if i < n:
                    arms.append((Rect(cx + half + 1, cy - half, cx + half + 4, cy + half), horizontal.name))
                if i >= 1:
                    arms.append((Rect(cx - half - 4, cy - half, cx - half - 1, cy + half), horizontal.name))
            if 1 <= i <= n - 1 and not vertical.arterial:  # across the north-south road
                if j < n:
                    arms.append((Rect(cx - half, cy + half + 1, cx + half, cy + half + 4), vertical.name))
                if j >= 1:
                    arms.append((Rect(cx - half, cy - half - 4, cx + half, cy - half - 1), vertical.name))
            for rect, street in arms:
                if rng.random() < p.crossing_keep:
                    district.crossings.append(Crossing(rect, street))


def _swap(rect: Rect, horizontal: bool) -> Rect:
    return rect if horizontal else Rect(rect.y0, rect.x0, rect.y1, rect.x1)


def _footbridge(district: District, road: Road, along: float) -> Footbridge:
    """A footbridge across `road` at `along` (x for an east-west road): landings in the inner 3 m of both
    sidewalks, flights running away from the crossing point, railings between flights and walkway."""
    p = district.params
    near, far = road.coord - p.road / 2, road.coord + p.road / 2
    top, bottom = along + 1.5, along + 1.5 + p.stair_run

    def local(x0: float, y0: float, x1: float, y1: float) -> Rect:
        return _swap(Rect(x0, y0, x1, y1), road.horizontal)

    return Footbridge(
        street=road.name,
        horizontal_road=road.horizontal,
        deck=local(along - 1.5, near - 3, along + 1.5, far + 3),
        stairs=(local(top, near - 3, bottom, near), local(top, far, bottom, far + 3)),
        top_edge=top,
        run_sign=1.0,
        railings=(local(along - 4, near - 4, bottom, near - 3), local(along - 4, far + 3, bottom, far + 4)),
        planters=(local(along - 4, near - 3, along - 1.5, near), local(along - 4, far, along - 1.5, far + 3)),
    )


def _shop_faces(lot: Rect, faces: list[str], street_of: dict[str, str]) -> list[tuple[str, tuple, tuple]]:
    segments = {
        "west": (((lot.x0, lot.y0), (lot.x0, lot.y1)), (-1.0, 0.0)),
        "east": (((lot.x1, lot.y0), (lot.x1, lot.y1)), (1.0, 0.0)),
        "south": (((lot.x0, lot.y0), (lot.x1, lot.y0)), (0.0, -1.0)),
        "north": (((lot.x0, lot.y1), (lot.x1, lot.y1)), (0.0, 1.0)),
    }
    return [(street_of[face], *segments[face]) for face in faces]


def _shop_name(rng: np.random.Generator, category: str, used: set[str]) -> str:
    noun = CATEGORIES[category][0]
    for _ in range(200):
        name = f"{NAME_WORDS[int(rng.integers(len(NAME_WORDS)))]} {noun}"
        if name not in used:
            used.add(name)
            return name
    raise RuntimeError(f"ran out of names for category {category!r}")


def _block_buildings(district: District, i: int, j: int, rng: np.random.Generator, used: set[str]) -> None:
    p = district.params
    block = district.blocks[(i, j)]
    s = p.sidewalk
    street_of = {
        "west": district.road(False, i).name,
        "east": district.road(False, i + 1).name,
        "south": district.road(True, j).name,
        "north": district.road(True, j + 1).name,
    }
    setback = {face: 0.0 for face in street_of}
    for bridge in district.footbridges:
        for face, rect in (
            ("north", Rect(block.x0, block.y1 - 1, block.x1, block.y1 + 1)),
            ("south", Rect(block.x0, block.y0 - 1, block.x1, block.y0 + 1)),
            ("east", Rect(block.x1 - 1, block.y0, block.x1 + 1, block.y1)),
            ("west", Rect(block.x0 - 1, block.y0, block.x0 + 1, block.y1)),
        ):
            if any(_overlaps(stairs, rect) for stairs in bridge.stairs):
                setback[face] = 5.0
    inner = Rect(
        block.x0 + s + setback["west"],
        block.y0 + s + setback["south"],
        block.x1 - s - setback["east"],
        block.y1 - s - setback["north"],
    )
    for face, depth in setback.items():
        if depth:
            outer = Rect(block.x0 + s, block.y0 + s, block.x1 - s, block.y1 - s)
            district.forecourts.append(
                {
                    "north": Rect(outer.x0, inner.y1, outer.x1, outer.y1),
                    "south": Rect(outer.x0, outer.y0, outer.x1, inner.y0),
                    "east": Rect(inner.x1, outer.y0, outer.x1, outer.y1),
                    "west": Rect(outer.x0, outer.y0, inner.x0, outer.y1),
                }[face]
            )
    mx, my = (inner.x0 + inner.x1) / 2, (inner.y0 + inner.y1) / 2
    categories = list(CATEGORIES)
    for a in (0, 1):
        for b in (0, 1):
            lot = Rect(
                inner.x0 if a == 0 else mx + 0.5,
                inner.y0 if b == 0 else my + 0.5,
                mx - 0.5 if a == 0 else inner.x1,
                my - 0.5 if b == 0 else inner.y1,
            )
            shade = int(rng.integers(150, 225))
            color = (shade, int(shade * rng.uniform(0.85, 1.0)), int(shade * rng.uniform(0.8, 1.05)) % 256)
            district.buildings.append(Building(lot, float(rng.uniform(12, 45)), color))
            faces = ["west" if a == 0 else "east", "south" if b == 0 else "north"]
            for street, segment, normal in _shop_faces(lot, faces, street_of):
                category = categories[int(rng.integers(len(categories)))]
                (x0, y0), (x1, y1) = segment
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                district.shops.append(
                    Shop(
                        name=_shop_name(rng, category, used),
                        category=category,
                        street=street,
                        facade=segment,
                        normal=normal,
                        entrance=(cx + 2.0 * normal[0], cy + 2.0 * normal[1]),
                        label_anchor=_label_anchor(cx, cy, normal, a),
                    )
                )


def _label_anchor(cx: float, cy: float, normal: tuple[float, float], column: int) -> tuple[float, float]:
    """Inside the facade: 5 m in and 3 m aside for east and west faces; for north and south faces 3.5 m in for
    the western lot and 7 m for the eastern one, so two lots' labels running towards each other do not touch."""
    if normal[0]:
        return (cx - 5.0 * normal[0], cy - 3.0 * normal[0])
    return (cx + (3.0 if column else -3.0), cy - (7.0 if column else 3.5) * normal[1])


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def generate_district(
    seed: int = 0, origin: tuple[float, float] = (22.2800, 114.1600), params: Params = Params()
) -> District:
    """A district from a seed (deterministic): streets, crossings, footbridges, blocks, shops, landmarks."""
    rng = np.random.default_rng(seed)
    slope = (float(rng.uniform(-0.012, 0.012)), float(rng.choice([-1, 1]) * rng.uniform(0.02, 0.035)))
    district = District(seed, origin, params, slope)
    n = params.blocks
    names = list(STREET_NAMES)
    rng.shuffle(names)
    arterial_h, arterial_v = int(rng.integers(2, n - 1)), int(rng.integers(2, n - 1))
    for j in range(n + 1):
        district.roads.append(Road(names[j], True, j * params.pitch, j == arterial_h))
    for i in range(n + 1):
        district.roads.append(Road(names[n + 1 + i], False, i * params.pitch, i == arterial_v))
    for i in range(n):
        for j in range(n):
            district.blocks[(i, j)] = _block_rect(params, i, j)
    _crossings(district, rng)
    for road in (district.road(True, arterial_h), district.road(False, arterial_v)):
        columns = sorted(
            rng.choice(
                [k for k in range(n) if k not in (arterial_v if road.horizontal else arterial_h,)],
                2,
                replace=False,
            )
        )
        for k in columns:
            district.footbridges.append(_footbridge(district, road, k * params.pitch + params.pitch / 2 - 4))
    for (i, j), block in district.blocks.items():
        s = params.sidewalk
        streets = (
            district.road(True, j).name,
            district.road(True, j + 1).name,
            district.road(False, i).name,
            district.road(False, i + 1).name,
        )
        district.sidewalks += [
            (Rect(block.x0, block.y0, block.x1, block.y0 + s), streets[0]),
            (Rect(block.x0, block.y1 - s, block.x1, block.y1), streets[1]),
            (Rect(block.x0, block.y0, block.x0 + s, block.y1), streets[2]),
            (Rect(block.x1 - s, block.y0, block.x1, block.y1), streets[3]),
        ]
    special = [
        key
        for key in district.blocks
        if all(
            not _overlaps(
                district.blocks[key], Rect(b.deck.x0 - 20, b.deck.y0 - 20, b.deck.x1 + 20, b.deck.y1 + 20)
            )
            for b in district.footbridges
        )
    ]
    park_key, plaza_key = (special[int(k)] for k in rng.choice(len(special), 2, replace=False))
    used: set[str] = set()
    for key in sorted(district.blocks):
        block = district.blocks[key]
        inner = Rect(
            block.x0 + params.sidewalk,
            block.y0 + params.sidewalk,
            block.x1 - params.sidewalk,
            block.y1 - params.sidewalk,
        )
        cx, cy = inner.center
        if key == park_key:
            district.parks.append((inner, "Victoria Park"))
            district.landmarks.append(
                Landmark(LANDMARKS["fountain"], "fountain", Rect(cx - 4, cy - 4, cx + 4, cy + 4), 3.0)
            )
            for _ in range(14):
                tx, ty = rng.uniform(inner.x0 + 3, inner.x1 - 3), rng.uniform(inner.y0 + 3, inner.y1 - 3)
                if abs(tx - cx) > 8 or abs(ty - cy) > 8:
                    district.trees.append((float(tx), float(ty)))
        elif key == plaza_key:
            district.plazas.append((inner, "Clock Tower Square"))
            district.landmarks.append(
                Landmark(LANDMARKS["clock_tower"], "clock_tower", Rect(cx - 3, cy - 3, cx + 3, cy + 3), 24.0)
            )
        else:
            _block_buildings(district, *key, rng, used)
    tall = int(rng.integers(len(district.buildings)))
    building = district.buildings[tall]
    district.buildings[tall] = Building(building.rect, 90.0, (120, 150, 185), LANDMARKS["tower"])
    return district
