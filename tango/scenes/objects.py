"""Object part models: each category is built from several coloured primitives so it reads as what it is.

Every builder works in a local frame: the footprint is centred on the origin in xz, the object stands on
y = 0, and its front faces +z (so its back goes against a wall at -z). Builders return one merged mesh.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import trimesh

RGB = tuple[int, int, int]

# Named colours an instance may be described with; the part carrying the attribute uses exactly this RGB.
COLORS: dict[str, RGB] = {
    "white": (236, 236, 230),
    "black": (38, 38, 42),
    "gray": (130, 132, 136),
    "brown": (118, 78, 44),
    "beige": (214, 194, 156),
    "red": (186, 44, 40),
    "blue": (52, 92, 172),
    "green": (62, 138, 72),
    "yellow": (226, 194, 58),
    "orange": (224, 128, 44),
    "pink": (226, 150, 172),
    "purple": (124, 74, 152),
}

WOOD_DARK: RGB = (92, 62, 38)
WOOD_LIGHT: RGB = (184, 144, 96)
METAL: RGB = (172, 174, 180)
CHROME: RGB = (205, 208, 214)
PORCELAIN: RGB = (246, 246, 244)
GLASS: RGB = (150, 196, 214)
SCREEN: RGB = (22, 24, 30)
MATTRESS: RGB = (240, 236, 226)
SOIL: RGB = (70, 48, 30)
LEAF: RGB = (46, 122, 52)
STONE: RGB = (96, 96, 100)


@dataclass(frozen=True)
class Size:
    """Extents of an object's bounding box: w along x, d along z (front-back), h along y."""

    w: float
    d: float
    h: float


Builder = Callable[[Size, RGB, np.random.Generator], trimesh.Trimesh]


@dataclass(frozen=True)
class Part:
    """One single-coloured primitive as plain arrays (cheap to build; merged into a mesh once per object)."""

    vertices: np.ndarray
    faces: np.ndarray
    rgb: RGB

    def transformed(self, matrix: np.ndarray) -> Part:
        return Part(self.vertices @ matrix[:3, :3].T + matrix[:3, 3], self.faces, self.rgb)


@cache
def _template(kind: str, sections: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Unit primitives: a 1 m box, a radius-1 height-1 cylinder along z, a unit icosphere."""
    if kind == "box":
        mesh = trimesh.creation.box([1.0, 1.0, 1.0])
    elif kind == "cylinder":
        mesh = trimesh.creation.cylinder(1.0, 1.0, sections=sections)
    else:
        mesh = trimesh.creation.icosphere(subdivisions=sections)
    vertices, faces = np.array(mesh.vertices, dtype=np.float64), np.array(mesh.faces, dtype=np.int64)
    vertices.flags.writeable = False
    faces.flags.writeable = False
    return vertices, faces


_AXIS_ROTATION = {
    "y": trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0])[:3, :3],
    "x": trimesh.transformations.rotation_matrix(np.pi / 2, [0, 1, 0])[:3, :3],
    "z": np.eye(3),
}


def box(w: float, h: float, d: float, center: tuple[float, float, float], rgb: RGB) -> Part:
    """Axis-aligned box with extents (w, h, d) centred at `center`."""
    vertices, faces = _template("box")
    return Part(vertices * (w, h, d) + center, faces, rgb)


def cylinder(
    radius: float,
    height: float,
    center: tuple[float, float, float],
    rgb: RGB,
    axis: str = "y",
    sections: int = 20,
) -> Part:
    """Cylinder along `axis` (x, y or z) centred at `center`."""
    vertices, faces = _template("cylinder", sections)
    return Part((vertices * (radius, radius, height)) @ _AXIS_ROTATION[axis].T + center, faces, rgb)


def ellipsoid(radii: tuple[float, float, float], center: tuple[float, float, float], rgb: RGB) -> Part:
    """Ellipsoid with semi-axes `radii` (x, y, z) centred at `center`."""
    vertices, faces = _template("sphere", 2)
    return Part(vertices * radii + center, faces, rgb)


def lathe(profile: list[tuple[float, float]], base: tuple[float, float, float], rgb: RGB) -> Part:
    """Surface of revolution about the vertical axis from (radius, height) points, standing at `base`."""
    mesh = trimesh.creation.revolve(np.asarray(profile, dtype=float), sections=24)
    return Part(np.asarray(mesh.vertices) @ _AXIS_ROTATION["y"].T + base, np.asarray(mesh.faces), rgb)


def ring(r_min: float, r_max: float, height: float, rgb: RGB) -> Part:
    """A flat annulus (a toilet seat) lying in the xz plane, centred on the origin."""
    mesh = trimesh.creation.annulus(r_min=r_min, r_max=r_max, height=height, sections=24)
    return Part(np.asarray(mesh.vertices) @ _AXIS_ROTATION["y"].T, np.asarray(mesh.faces), rgb)


def merge(parts: list[Part]) -> trimesh.Trimesh:
    """One mesh with per-vertex colours from single-coloured parts."""
    offsets = np.cumsum([0] + [len(p.vertices) for p in parts[:-1]])
    vertices = np.concatenate([p.vertices for p in parts])
    faces = np.concatenate([p.faces + o for p, o in zip(parts, offsets, strict=True)])
    colors = np.concatenate(
        [np.tile(np.array([*p.rgb, 255], dtype=np.uint8), (len(p.vertices), 1)) for p in parts]
    )
    return trimesh.Trimesh(vertices=vertices, faces=faces, vertex_colors=colors, process=False)


def _legs(
    s: Size, top_y: float, inset: float, thick: float, rgb: RGB, round_legs: bool = False
) -> list[Part]:
    legs = []
    for sx in (-1, 1):
        for sz in (-1, 1):
            c = (sx * (s.w / 2 - inset), top_y / 2, sz * (s.d / 2 - inset))
            legs.append(
                cylinder(thick / 2, top_y, c, rgb) if round_legs else box(thick, top_y, thick, c, rgb)
            )
    return legs


def _shade(rgb: RGB, factor: float) -> RGB:
    return tuple(int(np.clip(c * factor, 0, 255)) for c in rgb)  # type: ignore[return-value]


# ---- bedroom -------------------------------------------------------------------------------------------


def bed(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    frame_h = 0.32
    return merge(
        [
            box(s.w, frame_h - 0.08, s.d, (0, 0.08 + (frame_h - 0.08) / 2, 0), WOOD_DARK),
            *_legs(Size(s.w, s.d, 0), 0.08, 0.06, 0.08, WOOD_DARK),
            box(s.w - 0.06, 0.2, s.d - 0.12, (0, frame_h + 0.1, 0.03), MATTRESS),
            box(s.w - 0.02, 0.06, s.d * 0.62, (0, frame_h + 0.23, s.d / 2 - s.d * 0.31), rgb),
            box(s.w - 0.02, 0.18, 0.02, (0, frame_h + 0.12, s.d / 2 - 0.01), rgb),
            box(s.w, s.h, 0.08, (0, s.h / 2, -s.d / 2 + 0.04), WOOD_DARK),
        ]
    )


def pillow(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    """A soft block: a box core with rounded, bulging faces."""
    return merge(
        [
            box(s.w * 0.92, s.h * 0.7, s.d * 0.92, (0, s.h / 2, 0), rgb),
            ellipsoid((s.w / 2, s.h / 2, s.d / 2), (0, s.h / 2, 0), _shade(rgb, 1.06)),
        ]
    )


def nightstand(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.05, s.d, (0, 0.05 + (s.h - 0.05) / 2, 0), rgb),
        *_legs(s, 0.05, 0.03, 0.04, WOOD_DARK),
    ]
    for i in range(2):
        y = 0.05 + (s.h - 0.05) * (0.27 + 0.47 * i)
        parts.append(box(s.w - 0.06, (s.h - 0.05) * 0.4, 0.015, (0, y, s.d / 2 + 0.007), _shade(rgb, 0.85)))
        parts.append(ellipsoid((0.018, 0.018, 0.018), (0, y, s.d / 2 + 0.025), METAL))
    return merge(parts)


def wardrobe(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    door_rgb = _shade(rgb, 0.9)
    parts = [
        box(s.w, s.h - 0.06, s.d, (0, 0.06 + (s.h - 0.06) / 2, 0), rgb),
        box(s.w - 0.04, 0.06, s.d - 0.04, (0, 0.03, 0), WOOD_DARK),
    ]
    for sx in (-1, 1):
        parts.append(
            box(s.w / 2 - 0.03, s.h - 0.12, 0.02, (sx * s.w / 4, s.h / 2 + 0.03, s.d / 2 + 0.01), door_rgb)
        )
        parts.append(box(0.02, 0.3, 0.03, (sx * 0.05, s.h * 0.55, s.d / 2 + 0.035), METAL))
    return merge(parts)


def lamp(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    shade_h = max(0.18, s.h * 0.28)
    pole_h = s.h - shade_h * 0.7
    return merge(
        [
            cylinder(r * 0.55, 0.03, (0, 0.015, 0), METAL),
            cylinder(max(0.012, r * 0.08), pole_h, (0, pole_h / 2, 0), METAL),
            lathe(
                [(r * 0.55, 0), (r, 0), (r * 0.6, shade_h), (r * 0.55, shade_h)], (0, s.h - shade_h, 0), rgb
            ),
            ellipsoid((r * 0.25, r * 0.25, r * 0.25), (0, s.h - shade_h * 0.6, 0), (255, 244, 200)),
        ]
    )


# ---- wall decoration -----------------------------------------------------------------------------------


def mirror(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, s.h, s.d * 0.6, (0, s.h / 2, -s.d * 0.2), rgb),
            box(s.w - 0.08, s.h - 0.08, s.d * 0.4, (0, s.h / 2, s.d * 0.3), (198, 220, 230)),
        ]
    )


def picture(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    canvas_w, canvas_h = s.w - 0.08, s.h - 0.08
    parts = [
        box(s.w, s.h, s.d * 0.5, (0, s.h / 2, -s.d * 0.25), WOOD_DARK),
        box(canvas_w, canvas_h, s.d * 0.3, (0, s.h / 2, s.d * 0.1), rgb),
    ]
    palette = list(COLORS.values())
    for _ in range(3):
        pw, ph = canvas_w * rng.uniform(0.2, 0.45), canvas_h * rng.uniform(0.2, 0.45)
        px = rng.uniform(-canvas_w / 2 + pw / 2, canvas_w / 2 - pw / 2)
        py = s.h / 2 + rng.uniform(-canvas_h / 2 + ph / 2, canvas_h / 2 - ph / 2)
        parts.append(box(pw, ph, s.d * 0.2, (px, py, s.d * 0.35), palette[int(rng.integers(len(palette)))]))
    return merge(parts)


def clock(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = s.w / 2
    c = s.h / 2
    return merge(
        [
            cylinder(r, s.d * 0.6, (0, c, -s.d * 0.2), rgb, axis="z", sections=28),
            cylinder(r * 0.86, s.d * 0.2, (0, c, s.d * 0.2), (250, 250, 246), axis="z", sections=28),
            box(0.012, r * 0.55, s.d * 0.1, (0, c + r * 0.25, s.d * 0.35), SCREEN),
            box(r * 0.4, 0.012, s.d * 0.1, (r * 0.18, c, s.d * 0.4), SCREEN),
        ]
    )


# ---- living room ---------------------------------------------------------------------------------------


def _sofa(s: Size, rgb: RGB, seats: int) -> list[Part]:
    arm_w, back_d, seat_y = 0.18, 0.2, 0.42
    cushion_rgb = _shade(rgb, 1.12)
    parts = [
        box(s.w, seat_y - 0.1, s.d, (0, 0.06 + (seat_y - 0.1) / 2, 0), rgb),
        *_legs(Size(s.w, s.d, 0), 0.06, 0.05, 0.05, WOOD_DARK),
        box(s.w, s.h - 0.06, back_d, (0, 0.06 + (s.h - 0.06) / 2, -s.d / 2 + back_d / 2), rgb),
    ]
    for sx in (-1, 1):
        parts.append(box(arm_w, 0.64 - 0.06, s.d, (sx * (s.w / 2 - arm_w / 2), 0.06 + 0.29, 0), rgb))
    inner = s.w - 2 * arm_w
    for i in range(seats):
        cx = -inner / 2 + inner * (i + 0.5) / seats
        parts.append(
            box(inner / seats - 0.02, 0.12, s.d - back_d - 0.02, (cx, seat_y + 0.02, back_d / 2), cushion_rgb)
        )
    return parts


def couch(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(_sofa(s, rgb, 3 if s.w > 1.7 else 2))


def armchair(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(_sofa(s, rgb, 1))


def coffee_table(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, 0.05, s.d, (0, s.h - 0.025, 0), rgb),
            box(s.w - 0.1, 0.03, s.d - 0.1, (0, 0.15, 0), _shade(rgb, 0.8)),
            *_legs(s, s.h - 0.05, 0.05, 0.05, WOOD_DARK),
        ]
    )


def tv(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    screen_h = s.h - 0.1
    return merge(
        [
            box(s.w * 0.4, 0.02, s.d, (0, 0.01, 0), rgb),
            box(0.06, 0.12, 0.04, (0, 0.07, -0.02), rgb),
            box(s.w, screen_h, 0.05, (0, 0.1 + screen_h / 2, -0.02), rgb),
            box(s.w - 0.04, screen_h - 0.04, 0.01, (0, 0.1 + screen_h / 2, 0.01), SCREEN),
        ]
    )


def tv_stand(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.06, s.d, (0, 0.06 + (s.h - 0.06) / 2, 0), rgb),
        *_legs(s, 0.06, 0.04, 0.04, METAL),
    ]
    n = 3
    for i in range(n):
        cx = -s.w / 2 + s.w * (i + 0.5) / n
        parts.append(
            box(
                s.w / n - 0.04,
                s.h - 0.14,
                0.015,
                (cx, 0.06 + (s.h - 0.06) / 2, s.d / 2 + 0.007),
                _shade(rgb, 0.78),
            )
        )
    return merge(parts)


def bookshelf(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    side = 0.03
    parts = [
        box(side, s.h, s.d, (-s.w / 2 + side / 2, s.h / 2, 0), rgb),
        box(side, s.h, s.d, (s.w / 2 - side / 2, s.h / 2, 0), rgb),
        box(s.w, s.h, 0.015, (0, s.h / 2, -s.d / 2 + 0.0075), _shade(rgb, 0.75)),
    ]
    shelves = max(3, int(s.h / 0.38))
    gap = (s.h - side) / shelves
    palette = list(COLORS.values())
    for i in range(shelves + 1):
        parts.append(box(s.w - 2 * side, side, s.d, (0, side / 2 + i * gap, 0), rgb))
        if i == shelves:
            break
        x = -s.w / 2 + side + 0.02
        while True:
            bw = float(rng.uniform(0.025, 0.06))
            bh = float(rng.uniform(0.55, 0.85)) * (gap - side)
            if x + bw > s.w / 2 - side - 0.02:
                break
            if rng.random() < 0.88:
                colour = palette[int(rng.integers(len(palette)))]
                parts.append(box(bw, bh, s.d * 0.75, (x + bw / 2, side + i * gap + bh / 2, 0.0), colour))
            x += bw + 0.004
    return merge(parts)


def vase(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    profile = [(0.0, 0.0), (r * 0.6, 0.0), (r, s.h * 0.35), (r * 0.45, s.h * 0.8), (r * 0.6, s.h), (0.0, s.h)]
    return merge([lathe(profile, (0, 0, 0), rgb)])


def plant(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    pot_h = s.h * 0.3
    parts = [
        lathe([(0, 0), (r * 0.55, 0), (r * 0.7, pot_h), (0, pot_h)], (0, 0, 0), rgb),
        cylinder(r * 0.64, 0.02, (0, pot_h, 0), SOIL),
        cylinder(0.015, s.h * 0.35, (0, pot_h + s.h * 0.17, 0), WOOD_DARK),
    ]
    for _ in range(5):
        rr = r * float(rng.uniform(0.4, 0.6))
        cx, cz = (float(v) for v in rng.uniform(-r + rr, r - rr, size=2))
        cy = float(rng.uniform(pot_h + rr, s.h - rr))
        parts.append(ellipsoid((rr, rr, rr), (cx, cy, cz), _shade(LEAF, float(rng.uniform(0.8, 1.2)))))
    return merge(parts)


# ---- kitchen -------------------------------------------------------------------------------------------


def refrigerator(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    split = s.h * 0.68
    parts = [box(s.w, s.h - 0.02, s.d - 0.04, (0, 0.01 + (s.h - 0.02) / 2, -0.02), rgb)]
    parts.append(
        box(s.w - 0.02, split - 0.04, 0.04, (0, 0.02 + (split - 0.04) / 2, s.d / 2 - 0.02), _shade(rgb, 0.95))
    )
    parts.append(
        box(
            s.w - 0.02,
            s.h - split - 0.03,
            0.04,
            (0, split + (s.h - split) / 2, s.d / 2 - 0.02),
            _shade(rgb, 0.95),
        )
    )
    parts.append(box(0.025, 0.45, 0.04, (s.w / 2 - 0.07, split - 0.3, s.d / 2 + 0.02), CHROME))
    parts.append(box(0.025, 0.25, 0.04, (s.w / 2 - 0.07, split + 0.2, s.d / 2 + 0.02), CHROME))
    return merge(parts)


def oven(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.03, s.d, (0, (s.h - 0.03) / 2, 0), rgb),
        box(s.w, 0.03, s.d, (0, s.h - 0.015, 0), SCREEN),
        box(s.w - 0.12, s.h * 0.4, 0.015, (0, s.h * 0.38, s.d / 2 + 0.007), SCREEN),
        cylinder(0.012, s.w - 0.16, (0, s.h * 0.66, s.d / 2 + 0.04), CHROME, axis="x"),
        box(s.w, 0.1, 0.02, (0, s.h - 0.09, s.d / 2 + 0.01), _shade(rgb, 0.8)),
    ]
    for sx in (-1, 1):
        for sz in (-1, 1):
            parts.append(cylinder(0.08, 0.012, (sx * s.w / 4, s.h + 0.006, sz * s.d / 4), STONE))
    for i in range(4):
        parts.append(
            cylinder(
                0.018, 0.03, (-s.w / 2 + s.w * (i + 1) / 5, s.h - 0.09, s.d / 2 + 0.03), CHROME, axis="z"
            )
        )
    return merge(parts)


def microwave(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, s.h - 0.02, s.d, (0, 0.01 + (s.h - 0.02) / 2, 0), rgb),
            *_legs(s, 0.01, 0.03, 0.03, SCREEN),
            box(s.w * 0.62, s.h * 0.68, 0.01, (-s.w * 0.14, s.h / 2, s.d / 2 + 0.005), SCREEN),
            box(s.w * 0.2, s.h * 0.68, 0.01, (s.w * 0.34, s.h / 2, s.d / 2 + 0.005), STONE),
            box(s.w * 0.14, 0.02, 0.01, (s.w * 0.34, s.h * 0.7, s.d / 2 + 0.012), (90, 220, 120)),
        ]
    )


def counter(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    top = 0.04
    body_h = s.h - top - 0.08
    parts = [
        box(s.w - 0.04, 0.08, s.d - 0.08, (0, 0.04, -0.04), SCREEN),
        box(s.w, body_h, s.d - 0.04, (0, 0.08 + body_h / 2, -0.02), rgb),
        box(s.w, top, s.d, (0, s.h - top / 2, 0), STONE),
    ]
    doors = max(1, round(s.w / 0.5))
    for i in range(doors):
        cx = -s.w / 2 + s.w * (i + 0.5) / doors
        parts.append(
            box(
                s.w / doors - 0.02,
                body_h - 0.04,
                0.02,
                (cx, 0.08 + body_h / 2, s.d / 2 - 0.02),
                _shade(rgb, 0.9),
            )
        )
        parts.append(box(0.12, 0.015, 0.02, (cx, s.h - top - 0.08, s.d / 2), CHROME))
    return merge(parts)


def sink(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    """Basin with a faucet; tall ones (bathroom) stand on a pedestal, short ones sit on a counter."""
    basin_h = min(0.18, s.h * 0.5)
    base_y = s.h - basin_h - 0.2 if s.h > 0.5 else 0.0
    wall = 0.03
    bw, bd = s.w, s.d - 0.08
    bz = 0.04
    parts = [
        box(bw, 0.02, bd, (0, base_y + 0.01, bz), rgb),
        box(bw, basin_h, wall, (0, base_y + basin_h / 2, bz - bd / 2 + wall / 2), rgb),
        box(bw, basin_h, wall, (0, base_y + basin_h / 2, bz + bd / 2 - wall / 2), rgb),
        box(wall, basin_h, bd, (-bw / 2 + wall / 2, base_y + basin_h / 2, bz), rgb),
        box(wall, basin_h, bd, (bw / 2 - wall / 2, base_y + basin_h / 2, bz), rgb),
        box(bw, basin_h * 0.4, 0.08, (0, base_y + basin_h * 0.2, -s.d / 2 + 0.04), rgb),
        cylinder(0.015, 0.2, (0, base_y + basin_h * 0.4 + 0.1, -s.d / 2 + 0.04), CHROME),
        cylinder(0.012, 0.12, (0, base_y + basin_h * 0.4 + 0.19, -s.d / 2 + 0.1), CHROME, axis="z"),
    ]
    if base_y > 0:
        parts.append(cylinder(0.07, base_y, (0, base_y / 2, -0.02), rgb))
    return merge(parts)


def stool(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    parts = [cylinder(r, 0.05, (0, s.h - 0.025, 0), rgb), cylinder(r * 0.75, 0.02, (0, s.h * 0.3, 0), METAL)]
    for a in np.linspace(0, 2 * np.pi, 4, endpoint=False):
        parts.append(
            cylinder(0.015, s.h - 0.05, (np.cos(a) * r * 0.75, (s.h - 0.05) / 2, np.sin(a) * r * 0.75), METAL)
        )
    return merge(parts)


def trash_can(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    return merge(
        [
            lathe([(0, 0), (r * 0.85, 0), (r, s.h - 0.04), (0, s.h - 0.04)], (0, 0, 0), rgb),
            cylinder(r * 1.02, 0.04, (0, s.h - 0.02, 0), _shade(rgb, 0.7)),
        ]
    )


# ---- dining / office -----------------------------------------------------------------------------------


def table(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    if abs(s.w - s.d) < 0.05:
        r = s.w / 2
        return merge(
            [
                cylinder(r, 0.04, (0, s.h - 0.02, 0), rgb, sections=32),
                cylinder(0.05, s.h - 0.04, (0, (s.h - 0.04) / 2, 0), WOOD_DARK),
                cylinder(r * 0.45, 0.03, (0, 0.015, 0), WOOD_DARK),
            ]
        )
    return merge(
        [box(s.w, 0.04, s.d, (0, s.h - 0.02, 0), rgb), *_legs(s, s.h - 0.04, 0.06, 0.06, _shade(rgb, 0.7))]
    )


def chair(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    seat_y = 0.45
    legs = _shade(rgb, 0.6) if rgb != COLORS["black"] else METAL
    return merge(
        [
            box(s.w, 0.05, s.d, (0, seat_y - 0.025, 0), rgb),
            *_legs(Size(s.w, s.d, 0), seat_y - 0.05, 0.03, 0.035, legs),
            box(
                s.w,
                s.h - seat_y - 0.1,
                0.04,
                (0, seat_y + 0.1 + (s.h - seat_y - 0.1) / 2, -s.d / 2 + 0.02),
                rgb,
            ),
            box(0.035, 0.1, 0.035, (-s.w / 2 + 0.03, seat_y + 0.05, -s.d / 2 + 0.02), legs),
            box(0.035, 0.1, 0.035, (s.w / 2 - 0.03, seat_y + 0.05, -s.d / 2 + 0.02), legs),
        ]
    )


def desk(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    top = 0.035
    drawer_w = min(0.42, s.w * 0.35)
    return merge(
        [
            box(s.w, top, s.d, (0, s.h - top / 2, 0), rgb),
            box(0.04, s.h - top, s.d - 0.04, (-s.w / 2 + 0.02, (s.h - top) / 2, 0), _shade(rgb, 0.8)),
            box(
                drawer_w,
                s.h - top,
                s.d - 0.04,
                (s.w / 2 - drawer_w / 2, (s.h - top) / 2, 0),
                _shade(rgb, 0.8),
            ),
            box(
                s.w - drawer_w - 0.04,
                0.3,
                0.02,
                (-drawer_w / 2, s.h - top - 0.15, -s.d / 2 + 0.05),
                _shade(rgb, 0.8),
            ),
            box(
                drawer_w - 0.04,
                0.2,
                0.015,
                (s.w / 2 - drawer_w / 2, s.h - 0.16, s.d / 2 - 0.01),
                _shade(rgb, 0.95),
            ),
            box(
                drawer_w - 0.04, 0.4, 0.015, (s.w / 2 - drawer_w / 2, 0.28, s.d / 2 - 0.01), _shade(rgb, 0.95)
            ),
        ]
    )


def laptop(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    base_h = 0.02
    lid_len = s.h - base_h
    tilt = np.deg2rad(15.0)
    lid = box(s.w, lid_len, 0.012, (0, lid_len / 2, 0), rgb)
    screen = box(s.w - 0.03, lid_len - 0.03, 0.004, (0, lid_len / 2, 0.008), SCREEN)
    hinge = trimesh.transformations.translation_matrix(
        (0, base_h, -s.d / 2 + 0.01)
    ) @ trimesh.transformations.rotation_matrix(-tilt, [1, 0, 0])
    lid, screen = lid.transformed(hinge), screen.transformed(hinge)
    return merge(
        [
            box(s.w, base_h, s.d, (0, base_h / 2, 0), rgb),
            box(s.w - 0.04, 0.003, s.d * 0.45, (0, base_h + 0.0015, -s.d * 0.05), SCREEN),
            lid,
            screen,
        ]
    )


def cabinet(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.05, s.d, (0, 0.05 + (s.h - 0.05) / 2, 0), rgb),
        *_legs(s, 0.05, 0.04, 0.04, WOOD_DARK),
    ]
    doors = 2 if s.w > 0.6 else 1
    for i in range(doors):
        cx = -s.w / 2 + s.w * (i + 0.5) / doors
        parts.append(
            box(
                s.w / doors - 0.03,
                s.h - 0.11,
                0.015,
                (cx, 0.05 + (s.h - 0.05) / 2, s.d / 2 + 0.007),
                _shade(rgb, 0.88),
            )
        )
        parts.append(
            ellipsoid(
                (0.02, 0.02, 0.02),
                (cx + (0.1 if i == 0 and doors == 2 else -0.1), s.h * 0.6, s.d / 2 + 0.03),
                METAL,
            )
        )
    return merge(parts)


# ---- bathroom ------------------------------------------------------------------------------------------


def toilet(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    tank_d = 0.2
    bowl_len = s.d - tank_d
    bowl_c = -s.d / 2 + tank_d + bowl_len / 2
    seat = ring(0.1, s.w / 2, 0.03, rgb)
    seat = Part(seat.vertices * (1.0, 1.0, bowl_len / s.w) + (0, 0.42, bowl_c), seat.faces, rgb)
    return merge(
        [
            box(s.w * 0.5, 0.3, bowl_len * 0.6, (0, 0.15, bowl_c - 0.03), PORCELAIN),
            box(s.w * 0.6, 0.42, tank_d + 0.1, (0, 0.21, -s.d / 2 + tank_d / 2 + 0.05), PORCELAIN),
            ellipsoid((s.w / 2 * 0.92, 0.12, bowl_len / 2 * 0.95), (0, 0.3, bowl_c), PORCELAIN),
            seat,
            box(s.w, s.h - 0.42, tank_d, (0, 0.42 + (s.h - 0.42) / 2, -s.d / 2 + tank_d / 2), PORCELAIN),
            box(s.w + 0.02, 0.03, tank_d + 0.02, (0, s.h - 0.015, -s.d / 2 + tank_d / 2), rgb),
            cylinder(0.02, 0.01, (0, s.h + 0.005, -s.d / 2 + tank_d / 2), CHROME),
        ]
    )


def bathtub(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    wall = 0.07
    return merge(
        [
            box(s.w, 0.1, s.d, (0, 0.05, 0), rgb),
            box(s.w, s.h, wall, (0, s.h / 2, -s.d / 2 + wall / 2), rgb),
            box(s.w, s.h, wall, (0, s.h / 2, s.d / 2 - wall / 2), rgb),
            box(wall, s.h, s.d - 2 * wall, (-s.w / 2 + wall / 2, s.h / 2, 0), rgb),
            box(wall, s.h, s.d - 2 * wall, (s.w / 2 - wall / 2, s.h / 2, 0), rgb),
            box(s.w - 2 * wall - 0.04, 0.01, s.d - 2 * wall - 0.04, (0, 0.105, 0), (176, 206, 222)),
            cylinder(0.02, 0.18, (-s.w / 2 + 0.12, s.h + 0.09, -s.d / 2 + 0.04), CHROME),
            cylinder(0.015, 0.12, (-s.w / 2 + 0.12, s.h + 0.17, -s.d / 2 + 0.1), CHROME, axis="z"),
        ]
    )


def shower(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    tray_h = 0.08
    return merge(
        [
            box(s.w, tray_h, s.d, (0, tray_h / 2, 0), rgb),
            box(s.w - 0.1, 0.005, s.d - 0.1, (0, tray_h + 0.0025, 0), (186, 212, 226)),
            box(
                s.w * 0.5,
                s.h - tray_h,
                0.02,
                (s.w * 0.25, tray_h + (s.h - tray_h) / 2, s.d / 2 - 0.01),
                GLASS,
            ),
            box(s.w, 0.04, 0.04, (0, s.h - 0.02, s.d / 2 - 0.02), CHROME),
            box(0.02, s.h - tray_h, s.d - 0.02, (s.w / 2 - 0.01, tray_h + (s.h - tray_h) / 2, -0.01), GLASS),
            box(
                0.04,
                s.h - tray_h,
                0.04,
                (s.w / 2 - 0.02, tray_h + (s.h - tray_h) / 2, s.d / 2 - 0.02),
                CHROME,
            ),
            cylinder(0.015, s.h - 0.35, (-s.w / 2 + 0.08, (s.h - 0.35) / 2 + 0.2, -s.d / 2 + 0.04), CHROME),
            cylinder(0.1, 0.03, (-s.w / 2 + 0.16, s.h - 0.12, -s.d / 2 + 0.14), CHROME),
        ]
    )


def washing_machine(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.h) * 0.3
    door_y = s.h * 0.45
    return merge(
        [
            box(s.w, s.h, s.d - 0.02, (0, s.h / 2, -0.01), rgb),
            box(s.w, 0.12, 0.02, (0, s.h - 0.06, s.d / 2 - 0.01), _shade(rgb, 0.85)),
            cylinder(0.025, 0.03, (s.w * 0.3, s.h - 0.06, s.d / 2 + 0.01), CHROME, axis="z"),
            cylinder(r, 0.03, (0, door_y, s.d / 2 - 0.005), CHROME, axis="z", sections=28),
            cylinder(r * 0.78, 0.02, (0, door_y, s.d / 2 + 0.015), SCREEN, axis="z", sections=28),
        ]
    )


@dataclass(frozen=True)
class CategorySpec:
    """How a category is built and described: nominal size, allowed colours and materials, where it mounts."""

    builder: Builder
    size: Size
    colors: tuple[str, ...]
    materials: tuple[str, ...] = ()
    mount: str = "floor"  # floor | wall | top


_WOODS = ("brown", "beige", "white", "black")
_FABRICS = ("gray", "blue", "red", "green", "beige", "brown", "yellow", "purple", "orange", "pink")
_APPLIANCES = ("white", "gray", "black")

CATEGORIES: dict[str, CategorySpec] = {
    "bed": CategorySpec(bed, Size(1.6, 2.05, 1.0), _FABRICS, ("fabric",)),
    "pillow": CategorySpec(pillow, Size(0.55, 0.35, 0.14), _FABRICS + ("white",), ("fabric",), "top"),
    "nightstand": CategorySpec(nightstand, Size(0.48, 0.4, 0.55), _WOODS, ("wood",)),
    "wardrobe": CategorySpec(wardrobe, Size(1.2, 0.6, 2.0), _WOODS, ("wood",)),
    "lamp": CategorySpec(
        lamp,
        Size(0.4, 0.4, 1.55),
        ("white", "beige", "yellow", "red", "blue", "green", "orange"),
        ("fabric",),
    ),
    "mirror": CategorySpec(
        mirror, Size(0.6, 0.04, 0.85), ("black", "white", "brown", "gray", "yellow"), ("glass",), "wall"
    ),
    "picture": CategorySpec(
        picture,
        Size(0.8, 0.04, 0.6),
        ("blue", "red", "green", "yellow", "orange", "purple", "pink"),
        (),
        "wall",
    ),
    "clock": CategorySpec(
        clock, Size(0.36, 0.05, 0.36), ("black", "red", "brown", "blue", "white"), ("plastic",), "wall"
    ),
    "couch": CategorySpec(couch, Size(2.0, 0.9, 0.85), _FABRICS, ("fabric", "leather")),
    "armchair": CategorySpec(armchair, Size(0.85, 0.85, 0.85), _FABRICS, ("fabric", "leather")),
    "coffee table": CategorySpec(coffee_table, Size(1.0, 0.55, 0.42), _WOODS + ("gray",), ("wood", "glass")),
    "tv": CategorySpec(tv, Size(1.1, 0.2, 0.72), ("black", "gray"), ("plastic",), "top"),
    "tv stand": CategorySpec(tv_stand, Size(1.5, 0.42, 0.5), _WOODS, ("wood",)),
    "bookshelf": CategorySpec(bookshelf, Size(0.9, 0.32, 1.8), _WOODS, ("wood",)),
    "vase": CategorySpec(
        vase,
        Size(0.16, 0.16, 0.32),
        ("blue", "white", "red", "green", "yellow", "purple", "orange"),
        ("ceramic", "glass"),
        "top",
    ),
    "plant": CategorySpec(
        plant, Size(0.5, 0.5, 1.0), ("white", "brown", "gray", "red", "blue", "orange"), ("ceramic",)
    ),
    "refrigerator": CategorySpec(refrigerator, Size(0.75, 0.7, 1.8), _APPLIANCES, ("metal",)),
    "oven": CategorySpec(oven, Size(0.6, 0.62, 0.88), _APPLIANCES, ("metal",)),
    "microwave": CategorySpec(microwave, Size(0.5, 0.36, 0.3), _APPLIANCES, ("metal",), "top"),
    "counter": CategorySpec(
        counter, Size(1.6, 0.62, 0.9), ("white", "gray", "brown", "beige", "blue", "green"), ("wood",)
    ),
    "sink": CategorySpec(sink, Size(0.55, 0.45, 0.9), ("white", "gray"), ("ceramic", "metal")),
    "stool": CategorySpec(
        stool, Size(0.38, 0.38, 0.65), ("red", "black", "white", "brown", "yellow", "blue"), ("wood", "metal")
    ),
    "trash can": CategorySpec(
        trash_can, Size(0.32, 0.32, 0.5), ("gray", "black", "white", "green", "blue"), ("plastic", "metal")
    ),
    "table": CategorySpec(table, Size(1.5, 0.9, 0.76), _WOODS + ("gray",), ("wood", "glass")),
    "chair": CategorySpec(chair, Size(0.46, 0.48, 0.92), _WOODS + _FABRICS, ("wood", "fabric", "plastic")),
    "desk": CategorySpec(desk, Size(1.3, 0.65, 0.75), _WOODS + ("gray",), ("wood",)),
    "laptop": CategorySpec(
        laptop, Size(0.34, 0.24, 0.24), ("gray", "black", "white"), ("metal", "plastic"), "top"
    ),
    "cabinet": CategorySpec(cabinet, Size(1.0, 0.45, 0.9), _WOODS + ("gray", "blue", "green"), ("wood",)),
    "toilet": CategorySpec(toilet, Size(0.4, 0.68, 0.78), ("white", "black", "gray", "brown"), ("ceramic",)),
    "bathtub": CategorySpec(bathtub, Size(1.65, 0.75, 0.55), ("white", "beige"), ("ceramic",)),
    "shower": CategorySpec(shower, Size(0.9, 0.9, 2.0), ("white", "gray"), ("glass",)),
    "washing machine": CategorySpec(washing_machine, Size(0.6, 0.6, 0.85), _APPLIANCES, ("metal",)),
}


def build_object(category: str, size: Size, color: str, rng: np.random.Generator) -> trimesh.Trimesh:
    """Build one instance of `category` at `size` whose main parts have the named `color`."""
    spec = CATEGORIES[category]
    return spec.builder(size, COLORS[color], rng)
