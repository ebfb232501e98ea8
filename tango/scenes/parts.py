"""The parts object models are built from: named colours and materials, single-coloured primitives (box,
cylinder, ellipsoid, lathe, ring) as plain arrays, and their merge into one vertex-coloured mesh.

Every builder (tango.scenes.models_living, models_utility) works in a local frame: the footprint is centred on
the origin in xz, the object stands on y = 0, and its front faces +z (so its back goes against a wall at -z).
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


def four_legs(
    s: Size, top_y: float, inset: float, thick: float, rgb: RGB, round_legs: bool = False
) -> list[Part]:
    """Four legs of height `top_y` at the footprint's corners, `inset` from its edges (boxes or cylinders)."""
    legs = []
    for sx in (-1, 1):
        for sz in (-1, 1):
            c = (sx * (s.w / 2 - inset), top_y / 2, sz * (s.d / 2 - inset))
            legs.append(
                cylinder(thick / 2, top_y, c, rgb) if round_legs else box(thick, top_y, thick, c, rgb)
            )
    return legs


def shade(rgb: RGB, factor: float) -> RGB:
    """The colour darkened (factor < 1) or lightened, clipped to 0-255."""
    return tuple(int(np.clip(c * factor, 0, 255)) for c in rgb)  # type: ignore[return-value]
