"""The map view the server returns in map mode: a north-up plan of the district around a focus point, with
surface colours, shop names with category icons, street and landmark names, task markers, closures drawn as red
lines, the route `navigate` draws, the avatar, and a scale bar.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from tango.urban.city import mapstyle as style
from tango.urban.city.layout import District
from tango.urban.city.names import CATEGORIES
from tango.urban.city.raster import CityRaster

_PALETTE = np.zeros((256, 3), np.uint8)
for _cls, _colour in style.SURFACE_COLOURS.items():
    _PALETTE[_cls] = _colour


@dataclass
class MapCamera:
    """Where the map looks: focus (local east, north), metres across the image width, image size."""

    east: float
    north: float
    span_m: float = style.DEFAULT_SPAN_M
    width: int = 640
    height: int = 480

    @property
    def metres_per_pixel(self) -> float:
        return self.span_m / self.width

    def to_pixel(self, east: float, north: float) -> tuple[float, float]:
        mpp = self.metres_per_pixel
        return (self.width / 2 + (east - self.east) / mpp, self.height / 2 - (north - self.north) / mpp)

    def to_local(self, px: float, py: float) -> tuple[float, float]:
        mpp = self.metres_per_pixel
        return (self.east + (px - self.width / 2) * mpp, self.north - (py - self.height / 2) * mpp)


def icon(category: str) -> Image.Image:
    """The category icon: a square of the category colour with a dark border (the legend's icon)."""
    size = style.ICON_SIZE
    image = Image.new("RGB", (size, size), style.LABEL_INK)
    ImageDraw.Draw(image).rectangle((1, 1, size - 2, size - 2), fill=CATEGORIES[category][2])
    return image


def _surfaces(raster: CityRaster, camera: MapCamera) -> np.ndarray:
    """Nearest-neighbour resampling of the class raster into the view (an affine map), then the palette."""
    scale = camera.metres_per_pixel / raster.resolution
    x0 = (camera.east - camera.width / 2 * camera.metres_per_pixel - raster.origin_x) / raster.resolution
    y0 = (raster.top_y - (camera.north + camera.height / 2 * camera.metres_per_pixel)) / raster.resolution
    matrix = np.array([[scale, 0.0, x0 + 0.5 * scale - 0.5], [0.0, scale, y0 + 0.5 * scale - 0.5]])
    classes = cv2.warpAffine(
        raster.classes,
        matrix,
        (camera.width, camera.height),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
        borderValue=(0,),
    )
    return _PALETTE[classes]


@lru_cache(maxsize=2048)
def glyphs(text: str, size: int = style.LABEL_SIZE) -> Image.Image:
    """A label's ink as an 'L' mask (cached: the map draws the same names over and over)."""
    font = style.font(size)
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("L", (int(right - left) + 2, int(bottom - top) + 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, fill=255, font=font)
    return mask


def _in_view(camera: MapCamera, px: float, py: float, margin: float = 0.0) -> bool:
    return -margin <= px < camera.width + margin and -margin <= py < camera.height + margin


def label_box(
    shop_normal: tuple[float, float], column_east: bool, px: float, py: float, text_width: int
) -> tuple[int, int, int]:
    """(icon left, icon top, text left) of a shop label: the category icon is always centred on the anchor and
    the name runs inward from it (east of the icon for a west face or a western lot, west of it otherwise)."""
    half = style.ICON_SIZE // 2
    left, top = round(px) - half, round(py) - half
    runs_east = shop_normal[0] < 0 or (shop_normal[0] == 0 and not column_east)
    text_left = left + style.ICON_SIZE + 2 if runs_east else left - 2 - text_width
    return left, top, text_left


def draw_labels(
    image: Image.Image,
    district: District,
    camera: MapCamera,
    names: list[tuple[str, tuple[float, float], tuple[int, int, int]]],
) -> None:
    """Shop labels (category icon, then the name), street names mid-block, landmark and tower names."""
    draw = ImageDraw.Draw(image)
    for shop in district.shops:
        px, py = camera.to_pixel(*shop.label_anchor)
        if not _in_view(camera, px, py, 120):
            continue
        mask = glyphs(shop.name)
        left, top, text_left = label_box(
            shop.normal, shop.label_anchor[0] > _lot_middle(district, shop), px, py, mask.width
        )
        draw.rectangle(
            (left, top, left + style.ICON_SIZE - 1, top + style.ICON_SIZE - 1), fill=style.LABEL_INK
        )
        draw.rectangle(
            (left + 1, top + 1, left + style.ICON_SIZE - 2, top + style.ICON_SIZE - 2),
            fill=CATEGORIES[shop.category][2],
        )
        image.paste(style.LABEL_INK, (text_left, top + (style.ICON_SIZE - mask.height) // 2), mask)
    for name, (east, north), ink in names:
        px, py = camera.to_pixel(east, north)
        if _in_view(camera, px, py, 80):
            mask = glyphs(name)
            image.paste(ink, (int(px - mask.width / 2), int(py - mask.height / 2)), mask)


def _lot_middle(district: District, shop: object) -> float:
    """The east-west middle of the block a shop is in (a north or south face's label runs towards it)."""
    from tango.urban.city.layout import Shop

    assert isinstance(shop, Shop)
    pitch = district.params.pitch
    column = int(shop.label_anchor[0] // pitch)
    return column * pitch + pitch / 2


def place_names(district: District) -> list[tuple[str, tuple[float, float], tuple[int, int, int]]]:
    """Street names mid-block (none over a footbridge), landmark and tower names, with their ink."""
    p = district.params
    names: list[tuple[str, tuple[float, float], tuple[int, int, int]]] = []
    decks = [bridge.deck for bridge in district.footbridges]
    for road in district.roads:
        for k in range(p.blocks):
            along = k * p.pitch + p.pitch / 2
            point = (along, road.coord) if road.horizontal else (road.coord, along)
            if all(abs(point[0] - d.center[0]) > 25 or abs(point[1] - d.center[1]) > 25 for d in decks):
                names.append((road.name, point, style.STREET_INK))
    names += [
        (landmark.name, (landmark.footprint.center[0], landmark.footprint.y0 - 3.0), style.LABEL_INK)
        for landmark in district.landmarks
    ]
    names += [(b.name, b.rect.center, style.LABEL_INK) for b in district.buildings if b.name]
    return names


def render_map(
    raster: CityRaster,
    district: District,
    camera: MapCamera,
    agent: tuple[float, float, float] | None = None,
    markers: Sequence[tuple[float, float]] = (),
    closures: Sequence[Sequence[tuple[float, float]]] = (),
    selection: tuple[float, float] | None = None,
    names: list[tuple[str, tuple[float, float], tuple[int, int, int]]] | None = None,
    route: Sequence[tuple[float, float]] = (),
) -> np.ndarray:
    """The map image (HxWx3 uint8); `agent` is (east, north, yaw degrees clockwise from north); pass
    `names` (place_names of the district) to skip recomputing them; `route` is the drawn pedestrian route."""
    image = Image.fromarray(_surfaces(raster, camera))
    draw_labels(image, district, camera, place_names(district) if names is None else names)
    draw = ImageDraw.Draw(image)
    for line in closures:
        points = [camera.to_pixel(*vertex) for vertex in line]
        draw.line(points, fill=style.CLOSURE_COLOUR, width=4)
    if len(route) > 1:
        draw.line([camera.to_pixel(*point) for point in route], fill=style.ROUTE_COLOUR, width=3)
    for east, north in markers:
        px, py = camera.to_pixel(east, north)
        draw.ellipse((px - 5, py - 5, px + 5, py + 5), fill=style.MARKER_COLOUR)
    if selection is not None:
        px, py = camera.to_pixel(*selection)
        draw.line((px - 6, py, px + 6, py), fill=style.SELECTION_COLOUR, width=2)
        draw.line((px, py - 6, px, py + 6), fill=style.SELECTION_COLOUR, width=2)
    if agent is not None:
        px, py = camera.to_pixel(agent[0], agent[1])
        yaw = math.radians(agent[2])
        tip = (px + 9 * math.sin(yaw), py - 9 * math.cos(yaw))
        left = (px + 6 * math.sin(yaw - 2.5), py - 6 * math.cos(yaw - 2.5))
        right = (px + 6 * math.sin(yaw + 2.5), py - 6 * math.cos(yaw + 2.5))
        draw.polygon([tip, left, right], fill=style.AGENT_COLOUR)
    _scale_bar(draw, camera)
    return np.asarray(image)


def _scale_bar(draw: ImageDraw.ImageDraw, camera: MapCamera) -> None:
    x, _, width, height = style.LEGEND_BOX
    top = camera.height - height
    draw.rectangle((x, top, x + width - 1, camera.height - 1), fill=(255, 255, 255))
    metres = 50.0 if camera.span_m > 150 else 20.0
    pixels = metres / camera.metres_per_pixel
    draw.line((x + 8, top + 18, x + 8 + pixels, top + 18), fill=(0, 0, 0), width=3)
    draw.text((x + 8, top + 2), f"{metres:.0f} m   N up", fill=(0, 0, 0), font=style.font(10))
