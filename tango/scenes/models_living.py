"""Object models of bedrooms, living rooms and walls: each category built from several coloured parts
(tango.scenes.parts) so that it reads as what it is, in the parts' local frame."""

from __future__ import annotations

import numpy as np
import trimesh

from tango.scenes.parts import (
    COLORS,
    LEAF,
    MATTRESS,
    METAL,
    RGB,
    SCREEN,
    SOIL,
    WOOD_DARK,
    Part,
    Size,
    box,
    cylinder,
    ellipsoid,
    four_legs,
    lathe,
    merge,
    shade,
)

# ---- bedroom -------------------------------------------------------------------------------------------


def bed(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    frame_h = 0.32
    return merge(
        [
            box(s.w, frame_h - 0.08, s.d, (0, 0.08 + (frame_h - 0.08) / 2, 0), WOOD_DARK),
            *four_legs(Size(s.w, s.d, 0), 0.08, 0.06, 0.08, WOOD_DARK),
            box(s.w - 0.06, 0.2, s.d - 0.12, (0, frame_h + 0.1, 0.03), MATTRESS),
            box(s.w - 0.02, 0.06, s.d * 0.62, (0, frame_h + 0.23, s.d / 2 - s.d * 0.31), rgb),
            box(s.w - 0.02, 0.18, 0.02, (0, frame_h + 0.12, s.d / 2 - 0.01), rgb),
            box(s.w, s.h, 0.08, (0, s.h / 2, -s.d / 2 + 0.04), WOOD_DARK),
        ]
    )


def pillow(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    """A soft block: a box core with rounded, bulging faces."""
    return merge(
        [
            box(s.w * 0.92, s.h * 0.7, s.d * 0.92, (0, s.h / 2, 0), rgb),
            ellipsoid((s.w / 2, s.h / 2, s.d / 2), (0, s.h / 2, 0), shade(rgb, 1.06)),
        ]
    )


def nightstand(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.05, s.d, (0, 0.05 + (s.h - 0.05) / 2, 0), rgb),
        *four_legs(s, 0.05, 0.03, 0.04, WOOD_DARK),
    ]
    for i in range(2):
        y = 0.05 + (s.h - 0.05) * (0.27 + 0.47 * i)
        parts.append(box(s.w - 0.06, (s.h - 0.05) * 0.4, 0.015, (0, y, s.d / 2 + 0.007), shade(rgb, 0.85)))
        parts.append(ellipsoid((0.018, 0.018, 0.018), (0, y, s.d / 2 + 0.025), METAL))
    return merge(parts)


def wardrobe(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    door_rgb = shade(rgb, 0.9)
    parts = [
        box(s.w, s.h - 0.06, s.d, (0, 0.06 + (s.h - 0.06) / 2, 0), rgb),
        box(s.w - 0.04, 0.06, s.d - 0.04, (0, 0.03, 0), WOOD_DARK),
    ]
    for sx in (-1, 1):
        parts.append(
            box(s.w / 2 - 0.03, s.h - 0.12, 0.02, (sx * s.w / 4, s.h / 2 + 0.03, s.d / 2 + 0.01), door_rgb)
        )
        parts.append(box(0.02, 0.3, 0.03, (sx * 0.05, s.h * 0.55, s.d / 2 + 0.035), METAL))
    return merge(parts)


def lamp(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    shade_h = max(0.18, s.h * 0.28)
    pole_h = s.h - shade_h * 0.7
    return merge(
        [
            cylinder(r * 0.55, 0.03, (0, 0.015, 0), METAL),
            cylinder(max(0.012, r * 0.08), pole_h, (0, pole_h / 2, 0), METAL),
            lathe(
                [(r * 0.55, 0), (r, 0), (r * 0.6, shade_h), (r * 0.55, shade_h)], (0, s.h - shade_h, 0), rgb
            ),
            ellipsoid((r * 0.25, r * 0.25, r * 0.25), (0, s.h - shade_h * 0.6, 0), (255, 244, 200)),
        ]
    )


# ---- wall decoration -----------------------------------------------------------------------------------


def mirror(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, s.h, s.d * 0.6, (0, s.h / 2, -s.d * 0.2), rgb),
            box(s.w - 0.08, s.h - 0.08, s.d * 0.4, (0, s.h / 2, s.d * 0.3), (198, 220, 230)),
        ]
    )


def picture(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    canvas_w, canvas_h = s.w - 0.08, s.h - 0.08
    parts = [
        box(s.w, s.h, s.d * 0.5, (0, s.h / 2, -s.d * 0.25), WOOD_DARK),
        box(canvas_w, canvas_h, s.d * 0.3, (0, s.h / 2, s.d * 0.1), rgb),
    ]
    palette = list(COLORS.values())
    for _ in range(3):
        pw, ph = canvas_w * rng.uniform(0.2, 0.45), canvas_h * rng.uniform(0.2, 0.45)
        px = rng.uniform(-canvas_w / 2 + pw / 2, canvas_w / 2 - pw / 2)
        py = s.h / 2 + rng.uniform(-canvas_h / 2 + ph / 2, canvas_h / 2 - ph / 2)
        parts.append(box(pw, ph, s.d * 0.2, (px, py, s.d * 0.35), palette[int(rng.integers(len(palette)))]))
    return merge(parts)


def clock(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = s.w / 2
    c = s.h / 2
    return merge(
        [
            cylinder(r, s.d * 0.6, (0, c, -s.d * 0.2), rgb, axis="z", sections=28),
            cylinder(r * 0.86, s.d * 0.2, (0, c, s.d * 0.2), (250, 250, 246), axis="z", sections=28),
            box(0.012, r * 0.55, s.d * 0.1, (0, c + r * 0.25, s.d * 0.35), SCREEN),
            box(r * 0.4, 0.012, s.d * 0.1, (r * 0.18, c, s.d * 0.4), SCREEN),
        ]
    )


# ---- living room ---------------------------------------------------------------------------------------


def _sofa(s: Size, rgb: RGB, seats: int) -> list[Part]:
    arm_w, back_d, seat_y = 0.18, 0.2, 0.42
    cushion_rgb = shade(rgb, 1.12)
    parts = [
        box(s.w, seat_y - 0.1, s.d, (0, 0.06 + (seat_y - 0.1) / 2, 0), rgb),
        *four_legs(Size(s.w, s.d, 0), 0.06, 0.05, 0.05, WOOD_DARK),
        box(s.w, s.h - 0.06, back_d, (0, 0.06 + (s.h - 0.06) / 2, -s.d / 2 + back_d / 2), rgb),
    ]
    for sx in (-1, 1):
        parts.append(box(arm_w, 0.64 - 0.06, s.d, (sx * (s.w / 2 - arm_w / 2), 0.06 + 0.29, 0), rgb))
    inner = s.w - 2 * arm_w
    for i in range(seats):
        cx = -inner / 2 + inner * (i + 0.5) / seats
        parts.append(
            box(inner / seats - 0.02, 0.12, s.d - back_d - 0.02, (cx, seat_y + 0.02, back_d / 2), cushion_rgb)
        )
    return parts


def couch(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(_sofa(s, rgb, 3 if s.w > 1.7 else 2))


def armchair(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(_sofa(s, rgb, 1))


def coffee_table(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, 0.05, s.d, (0, s.h - 0.025, 0), rgb),
            box(s.w - 0.1, 0.03, s.d - 0.1, (0, 0.15, 0), shade(rgb, 0.8)),
            *four_legs(s, s.h - 0.05, 0.05, 0.05, WOOD_DARK),
        ]
    )


def tv(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    screen_h = s.h - 0.1
    return merge(
        [
            box(s.w * 0.4, 0.02, s.d, (0, 0.01, 0), rgb),
            box(0.06, 0.12, 0.04, (0, 0.07, -0.02), rgb),
            box(s.w, screen_h, 0.05, (0, 0.1 + screen_h / 2, -0.02), rgb),
            box(s.w - 0.04, screen_h - 0.04, 0.01, (0, 0.1 + screen_h / 2, 0.01), SCREEN),
        ]
    )


def tv_stand(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.06, s.d, (0, 0.06 + (s.h - 0.06) / 2, 0), rgb),
        *four_legs(s, 0.06, 0.04, 0.04, METAL),
    ]
    n = 3
    for i in range(n):
        cx = -s.w / 2 + s.w * (i + 0.5) / n
        parts.append(
            box(
                s.w / n - 0.04,
                s.h - 0.14,
                0.015,
                (cx, 0.06 + (s.h - 0.06) / 2, s.d / 2 + 0.007),
                shade(rgb, 0.78),
            )
        )
    return merge(parts)


def bookshelf(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    side = 0.03
    parts = [
        box(side, s.h, s.d, (-s.w / 2 + side / 2, s.h / 2, 0), rgb),
        box(side, s.h, s.d, (s.w / 2 - side / 2, s.h / 2, 0), rgb),
        box(s.w, s.h, 0.015, (0, s.h / 2, -s.d / 2 + 0.0075), shade(rgb, 0.75)),
    ]
    shelves = max(3, int(s.h / 0.38))
    gap = (s.h - side) / shelves
    palette = list(COLORS.values())
    for i in range(shelves + 1):
        parts.append(box(s.w - 2 * side, side, s.d, (0, side / 2 + i * gap, 0), rgb))
        if i == shelves:
            break
        x = -s.w / 2 + side + 0.02
        while True:
            bw = float(rng.uniform(0.025, 0.06))
            bh = float(rng.uniform(0.55, 0.85)) * (gap - side)
            if x + bw > s.w / 2 - side - 0.02:
                break
            if rng.random() < 0.88:
                colour = palette[int(rng.integers(len(palette)))]
                parts.append(box(bw, bh, s.d * 0.75, (x + bw / 2, side + i * gap + bh / 2, 0.0), colour))
            x += bw + 0.004
    return merge(parts)


def vase(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    profile = [(0.0, 0.0), (r * 0.6, 0.0), (r, s.h * 0.35), (r * 0.45, s.h * 0.8), (r * 0.6, s.h), (0.0, s.h)]
    return merge([lathe(profile, (0, 0, 0), rgb)])


def plant(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    pot_h = s.h * 0.3
    parts = [
        lathe([(0, 0), (r * 0.55, 0), (r * 0.7, pot_h), (0, pot_h)], (0, 0, 0), rgb),
        cylinder(r * 0.64, 0.02, (0, pot_h, 0), SOIL),
        cylinder(0.015, s.h * 0.35, (0, pot_h + s.h * 0.17, 0), WOOD_DARK),
    ]
    for _ in range(5):
        rr = r * float(rng.uniform(0.4, 0.6))
        cx, cz = (float(v) for v in rng.uniform(-r + rr, r - rr, size=2))
        cy = float(rng.uniform(pot_h + rr, s.h - rr))
        parts.append(ellipsoid((rr, rr, rr), (cx, cy, cz), shade(LEAF, float(rng.uniform(0.8, 1.2)))))
    return merge(parts)
