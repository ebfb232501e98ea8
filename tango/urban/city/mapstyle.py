"""The map view's legend: one colour per surface, label font and sizes, marker colours, the default span.

Published with the stand-in (docs/urban.md), like the key printed on a paper map: the agent's map reader
classifies map pixels by these colours and spots place labels and category icons drawn in this style.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

from tango.urban.city import raster as r

SURFACE_COLOURS: dict[int, tuple[int, int, int]] = {
    r.VOID: (40, 44, 52),
    r.ROAD: (96, 98, 106),
    r.SIDEWALK: (226, 222, 208),
    r.CROSSING: (250, 244, 170),
    r.BUILDING: (184, 170, 196),
    r.PARK: (168, 212, 150),
    r.PLAZA: (214, 206, 186),
    r.STAIRS: (210, 140, 70),
    r.DECK: (238, 170, 90),
    r.RAILING: (70, 50, 40),
    r.PLANTER: (90, 140, 80),
    r.LANDMARK: (150, 120, 200),
    r.TREE: (60, 120, 60),
}
LABEL_INK = (16, 16, 16)
STREET_INK = (250, 250, 250)
CLOSURE_COLOUR = (230, 20, 20)
MARKER_COLOUR = (220, 0, 200)
AGENT_COLOUR = (20, 90, 240)
SELECTION_COLOUR = (255, 200, 0)
ROUTE_COLOUR = (0, 170, 255)  # the route `navigate` draws to the selected point
LEGEND_BOX = (0, 0, 150, 26)  # x, y from the bottom-left corner, width, height: the scale bar lives there
LABEL_SIZE = 10
ICON_SIZE = 9
DEFAULT_SPAN_M = 200.0
MIN_SPAN_M, MAX_SPAN_M = 30.0, 2000.0


@lru_cache(maxsize=4)
def font(size: int = LABEL_SIZE) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled FreeType font (the same bytes on every machine with the pinned Pillow)."""
    return ImageFont.load_default(size=size)
