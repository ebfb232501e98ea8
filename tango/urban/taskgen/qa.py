"""Local QA tasks (LandmarkQA, OrientationQA, SpatialQA): four options, one answer index, a start to look from.

What is visible is decided by the stand-in camera's own sign legibility from the start point (four quarter
turns), so a LandmarkQA answer is really legible there and no distractor is; a SpatialQA answer is a short walk
away and not legible from the start.
"""

from __future__ import annotations

import math
from typing import Any

from tango.urban.routes import Point
from tango.urban.taskgen.context import GenContext, Reference

DIRECTION_OPTIONS = ("In front of you", "To your right", "Behind you", "To your left")
ANSWER_MIN_PX = 18.0  # an answer's sign is at least this tall from the start (the reader needs 10)


def _distractors(ctx: GenContext, start: Point, exclude: set[str], near_field: Any = None) -> list[str]:
    far = [
        shop.name
        for shop in ctx.district.shops
        if shop.name not in exclude
        and math.hypot(shop.entrance[0] - start[0], shop.entrance[1] - start[1]) >= 150
    ]
    picks = ctx.rng.choice(len(far), size=3, replace=False)
    return [far[int(k)] for k in picks]


def _qa_json(
    ctx: GenContext,
    prefix: str,
    task_type: int,
    number: int,
    start: Point,
    yaw: float,
    question: str,
    correct: str,
    others: list[str],
    fixed_order: bool = False,
) -> dict[str, Any]:
    options = [correct, *others]
    if not fixed_order:
        order = ctx.rng.permutation(4)
        options = [options[int(k)] for k in order]
    return {
        "id": f"{prefix}-{number:06d}",
        "type": task_type,
        "description": question,
        "qaStartPoint": ctx.geo(start, yaw, "Current position").to_json(),
        "qaOptions": [{"text": text} for text in options],
        "qaAnswerIndex": options.index(correct),
    }


def landmark_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start, yaw = ctx.random_sidewalk_point(), float(ctx.rng.uniform(0, 360))
    seen = ctx.signs_around(start, yaw)
    clear = ctx.signs_around(start, yaw, ANSWER_MIN_PX)
    shops = {s.name for s in ctx.district.shops}
    visible = sorted(name for name in clear if name in shops)
    if not visible:
        return None
    correct = visible[int(ctx.rng.integers(len(visible)))]
    question = "Which of these shops can you see from where you are standing?"
    task = _qa_json(ctx, "LQ", 7, number, start, yaw, question, correct, _distractors(ctx, start, set(seen)))
    return task, Reference([[start]])


def orientation_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start, yaw = ctx.random_sidewalk_point(), float(ctx.rng.uniform(0, 360))
    seen = ctx.signs_around(start, yaw, ANSWER_MIN_PX)
    shops = {s.name for s in ctx.district.shops}
    candidates = []
    for name, bearing in seen.items():
        quadrant = int(((bearing + 45) % 360) // 90)
        if name in shops and abs(((bearing - quadrant * 90) + 180) % 360 - 180) <= 20:
            candidates.append((name, quadrant))
    if not candidates:
        return None
    name, quadrant = candidates[int(ctx.rng.integers(len(candidates)))]
    question = f"Where is {name} relative to the direction you are facing right now?"
    task = _qa_json(
        ctx,
        "OQ",
        8,
        number,
        start,
        yaw,
        question,
        DIRECTION_OPTIONS[quadrant],
        [o for o in DIRECTION_OPTIONS if o != DIRECTION_OPTIONS[quadrant]],
    )
    task["qaOptions"] = [{"text": text} for text in DIRECTION_OPTIONS]
    task["qaAnswerIndex"] = quadrant
    return task, Reference([[start]])


def spatial_task(ctx: GenContext, number: int) -> tuple[dict[str, Any], Reference] | None:
    start, yaw = ctx.random_sidewalk_point(), float(ctx.rng.uniform(0, 360))
    field_ = ctx.distances_from(start)
    seen = ctx.signs_around(start, yaw)
    near = [shop for shop in ctx.shops_between(field_, 25.0, 70.0) if shop.name not in seen]
    if not near:
        return None
    answer = near[int(ctx.rng.integers(len(near)))]
    far = [shop.name for shop in ctx.district.shops if ctx.distance_at(field_, shop.entrance) >= 200]
    if len(far) < 3:
        return None
    others = [far[int(k)] for k in ctx.rng.choice(len(far), size=3, replace=False)]
    route = ctx.route(start, answer.entrance)
    if not route:
        return None
    question = "Which of these shops is within a short walk (under 80 m) of where you are standing?"
    task = _qa_json(ctx, "SQ", 9, number, start, yaw, question, answer.name, others)
    return task, Reference([route])
