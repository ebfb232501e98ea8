"""Explicit navigation tasks (ShortNav, LongNav, InstructionNav, ConstrainedNav) and the dynamic rung built on
them (DynamicClosureNav, PedestrianLongNav, RainShortNav, NightNav) in UrbanGround's task JSON shape."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from tango.urban.city.layout import Shop
from tango.urban.city.raster import CROSSING, DECK, PLAZA, SIDEWALK, STAIRS
from tango.urban.geo import segments_intersect
from tango.urban.routes import Point, heading_to, route_length, turn_between
from tango.urban.taskfile import GeoPoint
from tango.urban.taskgen.context import GenContext, Reference

ZERO = GeoPoint(0.0, 0.0).to_json()
DISTANCES = {
    "SN": (35.0, 80.0),
    "LN": (220.0, 420.0),
    "IN": (90.0, 200.0),
    "CN": (100.0, 240.0),
    "DCR": (230.0, 380.0),
}
CLOSURE_AT = {"CN": (0.35, 0.6), "DCR": (0.6, 0.8)}


def _goal_shop(ctx: GenContext, start: Point, prefix: str) -> tuple[Shop, list[Point]] | None:
    low, high = DISTANCES[prefix]
    field_ = ctx.distances_from(start)
    shops = ctx.shops_between(field_, low, high)
    if not shops:
        return None
    shop = shops[int(ctx.rng.integers(len(shops)))]
    route = ctx.route(start, shop.entrance)
    return (shop, route) if route else None


def _resample(route: list[Point], step: float = 1.0) -> list[Point]:
    points = [route[0]]
    for a, b in itertools.pairwise(route):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        for k in range(1, max(1, int(length / step)) + 1):
            t = min(1.0, k * step / length) if length else 1.0
            points.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return points


def _ray_to_wall(ctx: GenContext, origin: Point, direction: Point, limit: float = 10.0) -> Point | None:
    for distance in np.arange(0.25, limit, 0.25):
        point = (origin[0] + direction[0] * distance, origin[1] + direction[1] * distance)
        if not ctx.raster.is_walkable(*point):
            return (point[0] + direction[0] * 0.75, point[1] + direction[1] * 0.75)
    return None


def cut_route(
    ctx: GenContext, route: list[Point], fractions: tuple[float, float]
) -> tuple[list[Point], list[Point]] | None:
    """A closure line across the walkway at some fraction of the route, wall to wall, and the detour around it."""
    points = _resample(route)
    for _ in range(12):
        index = int(len(points) * ctx.rng.uniform(*fractions))
        index = min(max(index, 4), len(points) - 5)
        here = points[index]
        if ctx.raster.class_at(*here) not in (SIDEWALK, CROSSING, PLAZA):
            continue
        before, after = points[index - 3], points[index + 3]
        length = math.hypot(after[0] - before[0], after[1] - before[1]) or 1.0
        tangent = ((after[0] - before[0]) / length, (after[1] - before[1]) / length)
        normal = (-tangent[1], tangent[0])
        left = _ray_to_wall(ctx, here, normal)
        right = _ray_to_wall(ctx, here, (-normal[0], -normal[1]))
        if left is None or right is None:
            continue
        line = [right, left]
        detour = ctx.route(route[0], route[-1], avoid=[line])
        if not detour or route_length(detour) > 3.0 * route_length(route) + 60:
            continue
        crosses = any(segments_intersect(a, b, line[0], line[1]) for a, b in itertools.pairwise(route))
        if crosses and not any(
            segments_intersect(a, b, line[0], line[1]) for a, b in itertools.pairwise(detour)
        ):
            return line, detour
    return None


def _direction_word(heading: float) -> str:
    return ("north", "east", "south", "west")[int(((heading + 45) % 360) // 90)]


def instructions(ctx: GenContext, route: list[Point], goal: Shop) -> str:
    """Turn-by-turn text of a route: legs by heading, what surface each is on, turns between them."""
    legs: list[tuple[float, float, str]] = []  # heading, length, surface
    for a, b in itertools.pairwise(route):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 0.5:
            continue
        heading = heading_to(a, b)
        middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        cls = ctx.raster.class_at(*middle)
        surface = ctx.raster.surface_at(*middle)
        kind = "bridge" if cls in (STAIRS, DECK) else "crossing" if cls == CROSSING else surface
        if legs and abs(turn_between(legs[-1][0], heading)) < 35 and legs[-1][2] == kind:
            legs[-1] = (legs[-1][0], legs[-1][1] + length, kind)
        else:
            legs.append((heading, length, kind))
    legs = _merge_short(legs)
    sentences = []
    for number, (heading, length, kind) in enumerate(legs):
        if number:
            turn = turn_between(legs[number - 1][0], heading)
            if abs(turn) > 35:
                sentences.append("turn " + ("right" if turn > 0 else "left"))
        if kind == "crossing":
            sentences.append("cross the road at the zebra crossing")
        elif kind == "bridge":
            sentences.append("take the footbridge stairs and cross over the road")
        elif length >= 8:
            street = kind.split(" - ", 1)[1] if " - " in kind else ""
            along = f" along {street}" if street else ""
            sentences.append(f"walk {_direction_word(heading)}{along} for about {int(round(length, -1))} m")
    text = ", then ".join(sentences) or "walk a few metres"
    return f"{text[0].upper()}{text[1:]}. Stop at {goal.name}."


def _merge_short(legs: list[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    """Fold legs under 6 m (corner cuts) into their neighbours so the text names only real turns."""
    kept: list[tuple[float, float, str]] = []
    for heading, length, kind in legs:
        if length < 6.0 and kind not in ("crossing", "bridge") and kept:
            kept[-1] = (kept[-1][0], kept[-1][1] + length, kept[-1][2])
        elif kept and abs(turn_between(kept[-1][0], heading)) < 35 and kept[-1][2] == kind:
            kept[-1] = (kept[-1][0], kept[-1][1] + length, kind)
        else:
            kept.append((heading, length, kind))
    return kept


def nav_task(
    ctx: GenContext, prefix: str, task_type: int, number: int
) -> tuple[dict[str, Any], Reference] | None:
    """One ShortNav / LongNav / InstructionNav / ConstrainedNav / DynamicClosureNav task with its reference."""
    start = ctx.random_sidewalk_point()
    found = _goal_shop(ctx, start, prefix)
    if found is None:
        return None
    shop, route = found
    yaw = float(ctx.rng.uniform(0, 360))
    task: dict[str, Any] = {
        "id": f"{prefix}-{number:06d}",
        "type": task_type,
        "description": f"Walk to {shop.name}.",
        "startPoint": ctx.geo(start, yaw, "Current position").to_json(),
        "endPoint": ctx.geo(shop.entrance, 0.0, shop.name).to_json(),
    }
    reference = Reference([route])
    if prefix == "IN":
        task["description"] = instructions(ctx, route, shop)
    if prefix in CLOSURE_AT:
        cut = cut_route(ctx, route, CLOSURE_AT[prefix])
        if cut is None:
            return None
        line, detour = cut
        task["restrictedZones"] = [
            {"label": "Road works", "vertices": [{"lat": g.lat, "lon": g.lon} for g in map(ctx.geo, line)]}
        ]
        task["closureDelayMinutes"] = 0.5 if prefix == "DCR" else 0.0
        task["description"] = f"Walk to {shop.name}." + (
            " Part of the way is closed." if prefix == "CN" else ""
        )
        reference = Reference([detour], [line])
    return task, reference


def variant(source: dict[str, Any], prefix: str) -> dict[str, Any]:
    """A condition variant of a source task (their generated variants): id `<prefix>-<source id>`."""
    task = dict(source)
    task["id"] = f"{prefix}-{source['id']}"
    task["sourceTaskId"] = source["id"]
    return task
