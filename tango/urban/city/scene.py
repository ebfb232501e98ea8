"""The district as a trimesh scene for tango.sim.render (x east, y up, z = -north): ground surfaces, buildings,
shop fronts with textured signs, footbridges with stepped flights and railings, park, plaza and landmarks.

Untextured geometry is merged into one face-coloured mesh; each sign is its own node `obj_{id}` sharing the
atlas texture, so the renderer's instance ids tell which sign a pixel shows (`SignIndex`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh
from PIL import Image

from tango.urban.city.layout import District, Rect
from tango.urban.city.names import CATEGORIES
from tango.urban.city.raster import deck_height
from tango.urban.city.signs import AtlasCell, build_atlas

LANDMARK_ID_BASE = 1000
ROAD_GREY, CURB = (88, 90, 96), 0.12


@dataclass(frozen=True)
class SignEntry:
    """What an instance id shows: a shop sign or a landmark (text, kind, category, local position)."""

    text: str
    kind: str  # shop | landmark
    category: str
    east: float
    north: float


def _box(rect: Rect, bottom: float, top: float, colour: tuple[int, int, int]) -> trimesh.Trimesh:
    box = trimesh.creation.box(extents=[rect.x1 - rect.x0, top - bottom, rect.y1 - rect.y0])
    cx, cy = rect.center
    box.apply_translation([cx, (top + bottom) / 2, -cy])
    box.visual = trimesh.visual.ColorVisuals(box, face_colors=[*colour, 255])
    return box


def _slab(district: District, rect: Rect, raise_by: float, colour: tuple[int, int, int]) -> trimesh.Trimesh:
    """A quad following the ground plane over a rectangle, raised a little (pavements above the road)."""
    corners = [(rect.x0, rect.y0), (rect.x1, rect.y0), (rect.x1, rect.y1), (rect.x0, rect.y1)]
    vertices = [[x, district.ground(x, y) + raise_by, -y] for x, y in corners]
    return trimesh.Trimesh(
        vertices=vertices, faces=[[0, 1, 2], [0, 2, 3]], face_colors=[[*colour, 255]] * 2, process=False
    )


def _sign_quad(
    center: np.ndarray, normal: np.ndarray, half_w: float, half_h: float, cell: AtlasCell, atlas: Image.Image
) -> trimesh.Trimesh:
    up = np.array([0.0, 1.0, 0.0])
    right = np.cross(-normal, up)
    vertices = [
        center - right * half_w - up * half_h,
        center + right * half_w - up * half_h,
        center + right * half_w + up * half_h,
        center - right * half_w + up * half_h,
    ]
    uv = [[cell.u0, cell.v0], [cell.u1, cell.v0], [cell.u1, cell.v1], [cell.u0, cell.v1]]
    material = trimesh.visual.material.PBRMaterial(
        baseColorTexture=atlas, baseColorFactor=[255, 255, 255, 255]
    )
    visual = trimesh.visual.TextureVisuals(uv=np.array(uv), material=material)
    return trimesh.Trimesh(vertices=vertices, faces=[[0, 1, 2], [0, 2, 3]], visual=visual, process=False)


def _footbridges(district: District, parts: list[trimesh.Trimesh]) -> None:
    run = district.params.stair_run
    for bridge in district.footbridges:
        top = deck_height(district, bridge.deck)
        parts.append(_box(bridge.deck, top - 0.5, top, (200, 150, 90)))
        for side in (0, 1):
            edge = (
                Rect(bridge.deck.x0, bridge.deck.y0, bridge.deck.x0 + 0.15, bridge.deck.y1)
                if bridge.horizontal_road
                else Rect(bridge.deck.x0, bridge.deck.y0, bridge.deck.x1, bridge.deck.y0 + 0.15)
            )
            if side:
                edge = (
                    Rect(bridge.deck.x1 - 0.15, edge.y0, bridge.deck.x1, edge.y1)
                    if bridge.horizontal_road
                    else Rect(edge.x0, bridge.deck.y1 - 0.15, edge.x1, bridge.deck.y1)
                )
            parts.append(_box(edge, top, top + 1.1, (70, 60, 55)))
        for stairs in bridge.stairs:
            steps = 14
            for k in range(steps):
                a, b = k / steps, (k + 1) / steps
                if bridge.horizontal_road:
                    rect = Rect(bridge.top_edge + a * run, stairs.y0, bridge.top_edge + b * run, stairs.y1)
                else:
                    rect = Rect(stairs.x0, bridge.top_edge + a * run, stairs.x1, bridge.top_edge + b * run)
                cx, cy = rect.center
                ground = district.ground(cx, cy)
                height = ground + (top - ground) * (1 - (a + b) / 2)
                parts.append(_box(rect, ground - 0.2, height, (190, 130, 75)))
        for rect in bridge.railings:
            cx, cy = rect.center
            ground = district.ground(cx, cy)
            parts.append(_box(rect, ground, ground + 1.2, (70, 60, 55)))
        for rect in bridge.planters:
            cx, cy = rect.center
            parts.append(_box(rect, district.ground(cx, cy), district.ground(cx, cy) + 0.7, (80, 130, 70)))
        cx, cy = bridge.deck.center
        for dx, dy in ((0.0, -4.0), (0.0, 4.0)) if bridge.horizontal_road else ((-4.0, 0.0), (4.0, 0.0)):
            column = Rect(cx + dx - 0.3, cy + dy - 0.3, cx + dx + 0.3, cy + dy + 0.3)
            parts.append(_box(column, district.ground(cx, cy) - 0.5, top - 0.5, (150, 150, 150)))


def _landmarks(district: District, parts: list[trimesh.Trimesh]) -> None:
    for landmark in district.landmarks:
        cx, cy = landmark.footprint.center
        ground = district.ground(cx, cy)
        if landmark.kind == "fountain":
            basin = trimesh.creation.cylinder(radius=4.0, height=0.8, sections=24)
            basin.apply_translation([cx, ground + 0.4, -cy])
            basin.visual.face_colors = [170, 170, 180, 255]
            spout = trimesh.creation.cylinder(radius=0.6, height=landmark.height, sections=12)
            spout.apply_translation([cx, ground + landmark.height / 2, -cy])
            spout.visual.face_colors = [120, 170, 230, 255]
            parts += [basin, spout]
        else:
            parts.append(_box(landmark.footprint, ground - 0.5, ground + landmark.height, (170, 120, 90)))
            roof = Rect(
                landmark.footprint.x0 - 0.5,
                landmark.footprint.y0 - 0.5,
                landmark.footprint.x1 + 0.5,
                landmark.footprint.y1 + 0.5,
            )
            parts.append(_box(roof, ground + landmark.height, ground + landmark.height + 1.5, (90, 60, 50)))
    for tx, ty in district.trees:
        ground = district.ground(tx, ty)
        trunk = trimesh.creation.cylinder(radius=0.25, height=3.0, sections=8)
        trunk.apply_translation([tx, ground + 1.5, -ty])
        trunk.visual.face_colors = [110, 80, 50, 255]
        crown = trimesh.creation.icosphere(subdivisions=1, radius=2.2)
        crown.apply_translation([tx, ground + 4.2, -ty])
        crown.visual.face_colors = [60, 130, 60, 255]
        parts += [trunk, crown]


def _ground(district: District, parts: list[trimesh.Trimesh]) -> None:
    b = district.bounds
    parts.append(_slab(district, Rect(b.x0 - 60, b.y0 - 60, b.x1 + 60, b.y1 + 60), -0.05, (60, 64, 60)))
    parts.append(_slab(district, b, 0.0, ROAD_GREY))
    for rect, _ in district.sidewalks:
        parts.append(_slab(district, rect, CURB, (200, 196, 186)))
    for rect in district.forecourts:
        parts.append(_slab(district, rect, CURB + 0.01, (205, 195, 170)))
    for rect, _ in district.parks:
        parts.append(_slab(district, rect, CURB + 0.01, (110, 170, 90)))
    for rect, _ in district.plazas:
        parts.append(_slab(district, rect, CURB + 0.01, (190, 180, 160)))
    for crossing in district.crossings:
        r = crossing.rect
        across_x = (r.x1 - r.x0) > (r.y1 - r.y0)  # the stripes run across the walking direction
        stripes = 7
        for k in range(stripes):
            if across_x:
                lo = r.x0 + (r.x1 - r.x0) * k / stripes
                stripe = Rect(lo, r.y0, lo + (r.x1 - r.x0) / stripes * 0.55, r.y1)
            else:
                lo = r.y0 + (r.y1 - r.y0) * k / stripes
                stripe = Rect(r.x0, lo, r.x1, lo + (r.y1 - r.y0) / stripes * 0.55)
            parts.append(_slab(district, stripe, 0.02, (235, 235, 235)))


def build_scene(district: District) -> tuple[trimesh.Scene, dict[int, SignEntry]]:
    """The scene to render and the sign/landmark behind each instance id."""
    parts: list[trimesh.Trimesh] = []
    _ground(district, parts)
    for building in district.buildings:
        cx, cy = building.rect.center
        ground = district.ground(cx, cy)
        parts.append(_box(building.rect, ground - 3.0, ground + building.height, building.color))
    _footbridges(district, parts)
    _landmarks(district, parts)
    signs = [(shop.name, CATEGORIES[shop.category][2]) for shop in district.shops]
    tower = next((b for b in district.buildings if b.name), None)
    signs += [(landmark.name, (120, 90, 60)) for landmark in district.landmarks]
    if tower is not None:
        signs.append((tower.name, (40, 60, 110)))
    atlas, cells = build_atlas(signs)
    scene = trimesh.Scene()
    scene.add_geometry(trimesh.util.concatenate(parts), node_name="city", geom_name="city")
    index: dict[int, SignEntry] = {}
    for number, shop in enumerate(district.shops):
        (x0, y0), (x1, y1) = shop.facade
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        n = np.array([shop.normal[0], 0.0, -shop.normal[1]])
        ground = district.ground(cx + 2 * shop.normal[0], cy + 2 * shop.normal[1]) + CURB
        awning = Rect(
            min(cx, cx + 0.9 * shop.normal[0]) - (4.0 if shop.normal[1] else 0.0),
            min(cy, cy + 0.9 * shop.normal[1]) - (4.0 if shop.normal[0] else 0.0),
            max(cx, cx + 0.9 * shop.normal[0]) + (4.0 if shop.normal[1] else 0.0),
            max(cy, cy + 0.9 * shop.normal[1]) + (4.0 if shop.normal[0] else 0.0),
        )
        scene.add_geometry(
            _box(awning, ground + 2.6, ground + 2.75, CATEGORIES[shop.category][2]),
            node_name=f"awning_{number}",
            geom_name=f"awning_{number}",
        )
        # the board sits high enough to be seen over the awning from the shop's entrance, 2 m out
        center = np.array([cx, ground + 4.4, -cy]) + n * 0.12
        quad = _sign_quad(center, n, 4.0, 0.75, cells[number], atlas)
        instance = number + 1
        scene.add_geometry(quad, node_name=f"obj_{instance}", geom_name=f"sign_{instance}")
        index[instance] = SignEntry(shop.name, "shop", shop.category, *shop.entrance)
    _landmark_plaques(district, scene, cells, atlas, index)
    return scene, index


def _landmark_plaques(
    district: District,
    scene: trimesh.Scene,
    cells: list[AtlasCell],
    atlas: Image.Image,
    index: dict[int, SignEntry],
) -> None:
    first = len(district.shops)
    plaques = [
        (lm.name, lm.footprint, lm.height * 0.6 if lm.kind != "fountain" else 2.0)
        for lm in district.landmarks
    ]
    tower = next((b for b in district.buildings if b.name), None)
    if tower is not None:
        plaques.append((tower.name, tower.rect, tower.height - 4.0))
    for k, (name, footprint, height) in enumerate(plaques):
        cx, cy = footprint.center
        ground = district.ground(cx, cy)
        half = (footprint.x1 - footprint.x0) / 2
        for side, normal in enumerate(((0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0))):
            n = np.array([normal[0], 0.0, -normal[1]])
            center = np.array([cx, ground + height, -cy]) + n * (half + 0.6)
            width = min(half * 0.9, 6.0)
            quad = _sign_quad(center, n, width, width / 4, cells[first + k], atlas)
            instance = LANDMARK_ID_BASE + k * 4 + side
            scene.add_geometry(quad, node_name=f"obj_{instance}", geom_name=f"plaque_{instance}")
            index[instance] = SignEntry(name, "landmark", "", cx, cy)
