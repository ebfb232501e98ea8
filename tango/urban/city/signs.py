"""Shop signs and landmark plaques as cells of one texture atlas (one texture: one draw batch).

Each sign is white text on its category's colour, sized to fill the cell, drawn with Pillow's bundled font.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from tango.urban.city.mapstyle import font

CELL_W, CELL_H, COLUMNS = 256, 64, 8


@dataclass(frozen=True)
class AtlasCell:
    """UV rectangle (u0, v0 bottom, u1, v1 top) of one sign in the atlas."""

    u0: float
    v0: float
    u1: float
    v1: float


def _fit_font(draw: ImageDraw.ImageDraw, text: str) -> tuple[Any, tuple[float, float, float, float]]:
    for size in range(40, 9, -2):
        candidate = font(size)
        box = draw.textbbox((0, 0), text, font=candidate)
        if box[2] - box[0] <= CELL_W - 16 and box[3] - box[1] <= CELL_H - 12:
            return candidate, box
    candidate = font(10)
    return candidate, draw.textbbox((0, 0), text, font=candidate)


def build_atlas(signs: list[tuple[str, tuple[int, int, int]]]) -> tuple[Image.Image, list[AtlasCell]]:
    """One RGBA image holding every (text, background colour) sign, and the UV cell of each."""
    rows = max(1, -(-len(signs) // COLUMNS))
    height = 1
    while height < rows * CELL_H:
        height *= 2
    atlas = Image.new("RGBA", (CELL_W * COLUMNS, height), (0, 0, 0, 255))
    draw = ImageDraw.Draw(atlas)
    cells = []
    for index, (text, colour) in enumerate(signs):
        col, row = index % COLUMNS, index // COLUMNS
        x0, y0 = col * CELL_W, row * CELL_H
        background = tuple(int(c * 0.55) for c in colour)
        draw.rectangle((x0, y0, x0 + CELL_W - 1, y0 + CELL_H - 1), fill=(*background, 255))
        draw.rectangle(
            (x0 + 2, y0 + 2, x0 + CELL_W - 3, y0 + CELL_H - 3), outline=(255, 255, 255, 255), width=2
        )
        face, box = _fit_font(draw, text)
        tx = x0 + (CELL_W - (box[2] - box[0])) / 2 - box[0]
        ty = y0 + (CELL_H - (box[3] - box[1])) / 2 - box[1]
        draw.text((tx, ty), text, fill=(255, 255, 255, 255), font=face)  # type: ignore[arg-type]
        cells.append(
            AtlasCell(
                x0 / atlas.width, 1 - (y0 + CELL_H) / height, (x0 + CELL_W) / atlas.width, 1 - y0 / height
            )
        )
    return atlas, cells
