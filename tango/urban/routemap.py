"""The report's picture of an episode: the route walked, drawn on the stand-in's map (or on a blank plan for
the real app, whose map tango cannot draw), with the start, the goals and the closures."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from tango.urban.city.layout import District
from tango.urban.city.mapview import MapCamera, place_names, render_map
from tango.urban.city.raster import CityRaster
from tango.urban.geo import LocalFrame
from tango.urban.taskfile import UrbanTask

SIZE = 360


def _goals(task: UrbanTask) -> list[tuple[float, float]]:
    points = [(task.end.lat, task.end.lon)] if task.end is not None else []
    points += [(t.point.lat, t.point.lon) for t in task.targets]
    points += [(s.target.lat, s.target.lon) for s in task.schedule]
    points += [(p.lat, p.lon) for p in task.place_candidates[:1]]
    return points


class RoutePainter:
    """Draws routes; with a district (the stand-in) the map is the city's own map view."""

    def __init__(self, district: District | None = None, raster: CityRaster | None = None) -> None:
        self.district, self.raster = district, raster
        self.names = place_names(district) if district is not None else None

    def draw(self, task: UrbanTask, route: Sequence[tuple[float, float]]) -> np.ndarray:
        frame = (
            self.district.frame if self.district is not None else LocalFrame(task.start.lat, task.start.lon)
        )
        local = [frame.to_local(lat, lon) for lat, lon in route] or [
            frame.to_local(task.start.lat, task.start.lon)
        ]
        goals = [frame.to_local(*g) for g in _goals(task)]
        closures = [[frame.to_local(*v) for v in zone.vertices] for zone in task.zones]
        points = local + goals
        east0, east1 = min(p[0] for p in points) - 25, max(p[0] for p in points) + 25
        north0, north1 = min(p[1] for p in points) - 25, max(p[1] for p in points) + 25
        span = max(east1 - east0, north1 - north0, 60.0)
        camera = MapCamera((east0 + east1) / 2, (north0 + north1) / 2, span, SIZE, SIZE)
        if self.district is not None and self.raster is not None:
            image = Image.fromarray(
                render_map(self.raster, self.district, camera, closures=closures, names=self.names)
            )
        else:
            image = Image.new("RGB", (SIZE, SIZE), (245, 245, 240))
            draw = ImageDraw.Draw(image)
            for line in closures:
                draw.line([camera.to_pixel(*v) for v in line], fill=(230, 20, 20), width=4)
        draw = ImageDraw.Draw(image)
        pixels = [camera.to_pixel(*p) for p in local]
        if len(pixels) > 1:
            draw.line(pixels, fill=(20, 90, 240), width=3)
        for east, north in goals:
            px, py = camera.to_pixel(east, north)
            draw.ellipse((px - 6, py - 6, px + 6, py + 6), outline=(220, 0, 200), width=3)
        sx, sy = pixels[0]
        draw.rectangle((sx - 5, sy - 5, sx + 5, sy + 5), fill=(0, 170, 0))
        ex, ey = pixels[-1]
        draw.line((ex - 5, ey - 5, ex + 5, ey + 5), fill=(0, 0, 0), width=2)
        draw.line((ex - 5, ey + 5, ex + 5, ey - 5), fill=(0, 0, 0), width=2)
        if not math.isfinite(span):
            raise ValueError("route has no finite extent")
        return np.asarray(image)
