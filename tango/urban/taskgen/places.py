"""Implicit and multi-stop tasks: PlaceSearch (any place of a requested kind; its ground-truth places kept in
`placeCandidates`), ImplicitIntentNav (an everyday need; the nearest place that meets it is the end point),
MultipointNav (three places in any order) and ScheduleWindowNav (three places in order, each by a deadline)."""

from __future__ import annotations

import itertools
import math
from typing import Any

from tango.urban.city.layout import Shop
from tango.urban.city.names import CATEGORIES, CATEGORY_PHRASES
from tango.urban.routes import route_length
from tango.urban.server.world import START_CLOCK_S, WALK_M_S
from tango.urban.taskgen.context import GenContext, Reference
from tango.urban.taskgen.nav import ZERO

ACTIVITIES = ("meet a friend", "collect a parcel", "have an appointment", "drop off a form", "pick up a gift")


def _nearest_by_category(ctx: GenContext, field_: Any) -> dict[str, list[tuple[float, Shop]]]:
    by_category: dict[str, list[tuple[float, Shop]]] = {}
    for shop in ctx.district.shops:
        by_category.setdefault(shop.category, []).append((ctx.distance_at(field_, shop.entrance), shop))
    return {k: sorted(v, key=lambda item: item[0]) for k, v in by_category.items()}


def place_search_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start = ctx.random_sidewalk_point()
    field_ = ctx.distances_from(start)
    options = [
        (category, shops)
        for category, shops in _nearest_by_category(ctx, field_).items()
        if 40.0 <= shops[0][0] <= 170.0
    ]
    if not options:
        return None
    category, shops = options[int(ctx.rng.integers(len(options)))]
    route = ctx.route(start, shops[0][1].entrance)
    if not route:
        return None
    task = {
        "id": f"PS-{number:06d}",
        "type": 3,
        "description": f"Take me to a {CATEGORY_PHRASES[category]}.",
        "searchOrigin": ctx.geo(start, float(ctx.rng.uniform(0, 360)), "Current position").to_json(),
        "poiCategory": category,
        "startPoint": ZERO,
        "endPoint": ZERO,
        "placeCandidates": [ctx.geo(shop.entrance, 0.0, shop.name).to_json() for _, shop in shops],
    }
    return task, Reference([route])


def implicit_intent_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start = ctx.random_sidewalk_point()
    field_ = ctx.distances_from(start)
    options = []
    for category, shops in _nearest_by_category(ctx, field_).items():
        nearest = shops[0][0]
        second = shops[1][0] if len(shops) > 1 else math.inf
        if 40.0 <= nearest <= 200.0 and second >= 1.3 * nearest:
            options.append((category, shops[0][1]))
    if not options:
        return None
    category, shop = options[int(ctx.rng.integers(len(options)))]
    intents = CATEGORIES[category][1]
    route = ctx.route(start, shop.entrance)
    if not route:
        return None
    task = {
        "id": f"II-{number:06d}",
        "type": 12,
        "description": intents[int(ctx.rng.integers(len(intents)))],
        "exploreStart": ctx.geo(start, float(ctx.rng.uniform(0, 360)), "Current position").to_json(),
        "endPoint": ctx.geo(shop.entrance, 0.0, shop.name).to_json(),
        "startPoint": ZERO,
        "poiCategory": category,
        "exploreDurationMinutes": 10,
    }
    return task, Reference([route])


def _three_shops(ctx: GenContext, start: tuple[float, float]) -> list[Shop] | None:
    field_ = ctx.distances_from(start)
    near = ctx.shops_between(field_, 40.0, 170.0)
    if len(near) < 3:
        return None
    picks = [near[int(k)] for k in ctx.rng.choice(len(near), size=3, replace=False)]
    entrances = [shop.entrance for shop in picks]
    if min(math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in itertools.combinations(entrances, 2)) < 35:
        return None
    return picks


def multipoint_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start = ctx.random_sidewalk_point()
    shops = _three_shops(ctx, start)
    if shops is None:
        return None
    best: tuple[float, list[list[tuple[float, float]]]] | None = None
    for order in itertools.permutations(shops):
        points = [start] + [shop.entrance for shop in order]
        legs = [ctx.route(a, b) for a, b in itertools.pairwise(points)]
        if not all(legs):
            return None
        length = sum(route_length(leg) for leg in legs)
        if best is None or length < best[0]:
            best = (length, legs)
    assert best is not None
    names = [shop.name for shop in shops]
    task = {
        "id": f"MP-{number:06d}",
        "type": 13,
        "description": f"Today I will visit {names[0]}, {names[1]} and {names[2]}. Help me plan an efficient "
        "route and visit all of them.",
        "multiRouteStart": ctx.geo(start, float(ctx.rng.uniform(0, 360)), "Current position").to_json(),
        "multiRouteTargets": [
            {
                "kind": "poi",
                "point": ctx.geo(shop.entrance, 0.0, shop.name).to_json(),
                "poiCategory": shop.category,
                "note": shop.name,
            }
            for shop in shops
        ],
        "startPoint": ZERO,
        "endPoint": ZERO,
    }
    return task, Reference(best[1])


def _clock(seconds: float) -> str:
    minutes = math.ceil(seconds / 60.0)
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def _in_order(
    ctx: GenContext, legs: list[list[tuple[float, float]]], stops: list[tuple[float, float]]
) -> bool:
    """Whether walking the legs reaches the stops in order without passing a later stop first."""
    from tango.urban.metrics import Position, schedule_metrics
    from tango.urban.taskgen.nav import _resample

    frame = ctx.district.frame
    points = [frame.to_geo(*p) for leg in legs for p in _resample(leg, 2.0)]
    positions = [Position(lat, lon, k) for k, (lat, lon) in enumerate(points)]
    geo_stops = [frame.to_geo(*s) for s in stops]
    return schedule_metrics(positions, geo_stops, [None] * len(stops))["completed_in_order"] == 1.0


def schedule_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    """Deadlines leave 25% over walking pace plus a minute per stop from the stated current time."""
    start = ctx.random_sidewalk_point()
    shops = _three_shops(ctx, start)
    if shops is None:
        return None
    points = [start] + [shop.entrance for shop in shops]
    legs = [ctx.route(a, b) for a, b in itertools.pairwise(points)]
    if not all(legs):
        return None
    if not _in_order(ctx, legs, [shop.entrance for shop in shops]):
        return None
    now = START_CLOCK_S - 3600 + 60 * int(ctx.rng.integers(0, 120))
    deadlines, elapsed = [], 0.0
    for leg in legs:
        elapsed += route_length(leg) / WALK_M_S * 1.25 + 60.0
        deadlines.append(_clock(now + elapsed))
    sentences = [f"It is now {_clock(now)}."]
    for index, (shop, deadline) in enumerate(zip(shops, deadlines)):
        activity = ACTIVITIES[int(ctx.rng.integers(len(ACTIVITIES)))]
        lead = "First, by" if index == 0 else "Then, by" if index < 2 else "Finally, by"
        sentences.append(f"{lead} {deadline} you {activity} at {shop.name}.")
    task = {
        "id": f"SF-{number:06d}",
        "type": 5,
        "description": " ".join(sentences),
        "scheduleStart": ctx.geo(start, float(ctx.rng.uniform(0, 360)), "Current position").to_json(),
        "schedule": [
            {"target": ctx.geo(shop.entrance, 0.0, shop.name).to_json(), "deadline": deadline}
            for shop, deadline in zip(shops, deadlines)
        ],
        "startPoint": ZERO,
        "endPoint": ZERO,
    }
    return task, Reference(legs)
