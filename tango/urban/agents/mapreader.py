"""Reading the stand-in's map view from its pixels, with the published legend (tango.urban.city.mapstyle).

A map screenshot (PNG, so colours are exact) is classified pixel by pixel: surface colours give walkable or
not, closure red is blocked, everything else (label ink, icons, markers, the avatar) is filled from the nearest
classified pixel. Place names are found by matching the name's glyphs in the legend's font against the map's
ink, and category icons by their exact colours; a found label's icon is the place's anchor.
The agent knows where a view looks from its own actions: the map opens centred on it with the legend's span.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from scipy import ndimage

from tango.urban.city import mapstyle as style
from tango.urban.city.mapview import MapCamera, glyphs
from tango.urban.city.names import CATEGORIES
from tango.urban.city.raster import WALKABLE_CLASSES

_KNOWN = np.array(list(style.SURFACE_COLOURS.values()), np.int32)
_CLASSES = np.array(list(style.SURFACE_COLOURS.keys()), np.int32)
_WALKABLE = np.isin(_CLASSES, WALKABLE_CLASSES)
UNKNOWN, BLOCKED, FREE = 0, 1, 2


@dataclass
class MapReading:
    """One map view: its geometry, the RGB pixels and per-pixel walkability (FREE, BLOCKED; UNKNOWN in the
    legend box)."""

    camera: MapCamera
    rgb: np.ndarray
    cells: np.ndarray


def _key(rgb: np.ndarray) -> np.ndarray:
    rgb = rgb.astype(np.int32)
    return (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def read_walkability(rgb: np.ndarray) -> np.ndarray:
    """FREE / BLOCKED per pixel (UNKNOWN inside the scale-bar box)."""
    keys = _key(rgb)
    known_keys = (_KNOWN[:, 0] << 16) | (_KNOWN[:, 1] << 8) | _KNOWN[:, 2]
    index = np.full(keys.shape, -1, np.int32)
    for k, value in enumerate(known_keys):
        index[keys == value] = k
    closure = keys == (
        (style.CLOSURE_COLOUR[0] << 16) | (style.CLOSURE_COLOUR[1] << 8) | style.CLOSURE_COLOUR[2]
    )
    unknown = (index < 0) & ~closure
    if unknown.any() and (~unknown).any():
        _, (rows, cols) = ndimage.distance_transform_edt(unknown, return_indices=True)
        index = index[rows, cols]
    walkable = np.where(index >= 0, _WALKABLE[np.clip(index, 0, None)], False)
    closure = ndimage.binary_dilation(closure, iterations=2)
    cells = np.where(walkable & ~closure, FREE, BLOCKED).astype(np.uint8)
    x, _, width, height = style.LEGEND_BOX
    cells[rgb.shape[0] - height :, x : x + width] = UNKNOWN
    return cells


def _ink(rgb: np.ndarray) -> np.ndarray:
    """How much label ink each pixel carries (0-1), relative to the lightest nearby background."""
    grey = rgb.astype(np.float32).mean(axis=2)
    background = cv2.dilate(grey, np.ones((5, 5), np.uint8))
    return np.clip((background - grey) / np.maximum(background - 16.0, 1.0), 0.0, 1.0)


def find_label(reading: MapReading, name: str, threshold: float = 0.75) -> tuple[float, float] | None:
    """The local point of a place's icon (its anchor) when its name is printed in this view, else None."""
    mask = np.asarray(glyphs(name), np.float32) / 255.0
    ink = _ink(reading.rgb)
    if mask.shape[0] >= ink.shape[0] or mask.shape[1] >= ink.shape[1]:
        return None
    # 1 - squared error / the name's own ink: 1 where the name is printed, 0 on blank ground (a normalised
    # correlation would also score flat patches)
    error = cv2.matchTemplate(ink, mask, cv2.TM_SQDIFF)
    scores = 1.0 - error / float((mask**2).sum())
    _, best, _, (left, top) = cv2.minMaxLoc(scores)
    if best < threshold:
        return None
    middle_row = top + mask.shape[0] / 2
    icon = _icon_beside(reading.rgb, left, left + mask.shape[1], middle_row)
    if icon is None:
        return None
    return reading.camera.to_local(*icon)


def _icon_beside(rgb: np.ndarray, left: int, right: int, row: float) -> tuple[float, float] | None:
    """Centre of a category icon just left or right of a name (2 px gap), found by its dark 9 px frame."""
    size = style.ICON_SIZE
    for x0 in (left - 2 - size, right + 2):
        for y0 in range(int(row) - size // 2 - 3, int(row) - size // 2 + 4):
            if x0 < 0 or y0 < 0 or x0 + size > rgb.shape[1] or y0 + size > rgb.shape[0]:
                continue
            patch = rgb[y0 : y0 + size, x0 : x0 + size].astype(np.int32)
            frame = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]])
            inner = patch[1:-1, 1:-1].reshape(-1, 3)
            if (
                np.abs(frame - style.LABEL_INK).max() <= 6
                and (inner == inner[0]).all()
                and tuple(inner[0]) in _ICON_COLOURS
            ):
                return (x0 + size / 2, y0 + size / 2)
    return None


_ICON_COLOURS = {colour for _, _, colour in CATEGORIES.values()}


def find_icons(reading: MapReading, category: str) -> list[tuple[float, float]]:
    """Local points of every icon of a category in this view (the icon's inner colour, framed in ink)."""
    colour = np.array(CATEGORIES[category][2], np.int32)
    inner = style.ICON_SIZE - 2
    match = (np.abs(reading.rgb.astype(np.int32) - colour).max(axis=2) == 0).astype(np.uint8)
    filled = cv2.erode(match, np.ones((inner, inner), np.uint8), anchor=(0, 0))
    rows, cols = np.nonzero(filled)
    points = []
    for row, col in zip(rows, cols):
        points.append(reading.camera.to_local(col + inner / 2, row + inner / 2))
    return points
