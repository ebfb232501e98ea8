"""Object models of kitchens, dining rooms and offices, and bathrooms: each category built from several coloured
parts (tango.scenes.parts) so that it reads as what it is, in the parts' local frame."""

from __future__ import annotations

import numpy as np
import trimesh

from tango.scenes.parts import (
    CHROME,
    COLORS,
    GLASS,
    METAL,
    PORCELAIN,
    RGB,
    SCREEN,
    STONE,
    WOOD_DARK,
    Part,
    Size,
    box,
    cylinder,
    ellipsoid,
    four_legs,
    lathe,
    merge,
    ring,
    shade,
)

# ---- kitchen -------------------------------------------------------------------------------------------


def refrigerator(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    split = s.h * 0.68
    parts = [box(s.w, s.h - 0.02, s.d - 0.04, (0, 0.01 + (s.h - 0.02) / 2, -0.02), rgb)]
    parts.append(
        box(s.w - 0.02, split - 0.04, 0.04, (0, 0.02 + (split - 0.04) / 2, s.d / 2 - 0.02), shade(rgb, 0.95))
    )
    parts.append(
        box(
            s.w - 0.02,
            s.h - split - 0.03,
            0.04,
            (0, split + (s.h - split) / 2, s.d / 2 - 0.02),
            shade(rgb, 0.95),
        )
    )
    parts.append(box(0.025, 0.45, 0.04, (s.w / 2 - 0.07, split - 0.3, s.d / 2 + 0.02), CHROME))
    parts.append(box(0.025, 0.25, 0.04, (s.w / 2 - 0.07, split + 0.2, s.d / 2 + 0.02), CHROME))
    return merge(parts)


def oven(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.03, s.d, (0, (s.h - 0.03) / 2, 0), rgb),
        box(s.w, 0.03, s.d, (0, s.h - 0.015, 0), SCREEN),
        box(s.w - 0.12, s.h * 0.4, 0.015, (0, s.h * 0.38, s.d / 2 + 0.007), SCREEN),
        cylinder(0.012, s.w - 0.16, (0, s.h * 0.66, s.d / 2 + 0.04), CHROME, axis="x"),
        box(s.w, 0.1, 0.02, (0, s.h - 0.09, s.d / 2 + 0.01), shade(rgb, 0.8)),
    ]
    for sx in (-1, 1):
        for sz in (-1, 1):
            parts.append(cylinder(0.08, 0.012, (sx * s.w / 4, s.h + 0.006, sz * s.d / 4), STONE))
    for i in range(4):
        parts.append(
            cylinder(
                0.018, 0.03, (-s.w / 2 + s.w * (i + 1) / 5, s.h - 0.09, s.d / 2 + 0.03), CHROME, axis="z"
            )
        )
    return merge(parts)


def microwave(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    return merge(
        [
            box(s.w, s.h - 0.02, s.d, (0, 0.01 + (s.h - 0.02) / 2, 0), rgb),
            *four_legs(s, 0.01, 0.03, 0.03, SCREEN),
            box(s.w * 0.62, s.h * 0.68, 0.01, (-s.w * 0.14, s.h / 2, s.d / 2 + 0.005), SCREEN),
            box(s.w * 0.2, s.h * 0.68, 0.01, (s.w * 0.34, s.h / 2, s.d / 2 + 0.005), STONE),
            box(s.w * 0.14, 0.02, 0.01, (s.w * 0.34, s.h * 0.7, s.d / 2 + 0.012), (90, 220, 120)),
        ]
    )


def counter(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    top = 0.04
    body_h = s.h - top - 0.08
    parts = [
        box(s.w - 0.04, 0.08, s.d - 0.08, (0, 0.04, -0.04), SCREEN),
        box(s.w, body_h, s.d - 0.04, (0, 0.08 + body_h / 2, -0.02), rgb),
        box(s.w, top, s.d, (0, s.h - top / 2, 0), STONE),
    ]
    doors = max(1, round(s.w / 0.5))
    for i in range(doors):
        cx = -s.w / 2 + s.w * (i + 0.5) / doors
        parts.append(
            box(
                s.w / doors - 0.02,
                body_h - 0.04,
                0.02,
                (cx, 0.08 + body_h / 2, s.d / 2 - 0.02),
                shade(rgb, 0.9),
            )
        )
        parts.append(box(0.12, 0.015, 0.02, (cx, s.h - top - 0.08, s.d / 2), CHROME))
    return merge(parts)


def sink(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    """Basin with a faucet; tall ones (bathroom) stand on a pedestal, short ones sit on a counter."""
    basin_h = min(0.18, s.h * 0.5)
    base_y = s.h - basin_h - 0.2 if s.h > 0.5 else 0.0
    wall = 0.03
    bw, bd = s.w, s.d - 0.08
    bz = 0.04
    parts = [
        box(bw, 0.02, bd, (0, base_y + 0.01, bz), rgb),
        box(bw, basin_h, wall, (0, base_y + basin_h / 2, bz - bd / 2 + wall / 2), rgb),
        box(bw, basin_h, wall, (0, base_y + basin_h / 2, bz + bd / 2 - wall / 2), rgb),
        box(wall, basin_h, bd, (-bw / 2 + wall / 2, base_y + basin_h / 2, bz), rgb),
        box(wall, basin_h, bd, (bw / 2 - wall / 2, base_y + basin_h / 2, bz), rgb),
        box(bw, basin_h * 0.4, 0.08, (0, base_y + basin_h * 0.2, -s.d / 2 + 0.04), rgb),
        cylinder(0.015, 0.2, (0, base_y + basin_h * 0.4 + 0.1, -s.d / 2 + 0.04), CHROME),
        cylinder(0.012, 0.12, (0, base_y + basin_h * 0.4 + 0.19, -s.d / 2 + 0.1), CHROME, axis="z"),
    ]
    if base_y > 0:
        parts.append(cylinder(0.07, base_y, (0, base_y / 2, -0.02), rgb))
    return merge(parts)


def stool(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    parts = [cylinder(r, 0.05, (0, s.h - 0.025, 0), rgb), cylinder(r * 0.75, 0.02, (0, s.h * 0.3, 0), METAL)]
    for a in np.linspace(0, 2 * np.pi, 4, endpoint=False):
        parts.append(
            cylinder(0.015, s.h - 0.05, (np.cos(a) * r * 0.75, (s.h - 0.05) / 2, np.sin(a) * r * 0.75), METAL)
        )
    return merge(parts)


def trash_can(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.d) / 2
    return merge(
        [
            lathe([(0, 0), (r * 0.85, 0), (r, s.h - 0.04), (0, s.h - 0.04)], (0, 0, 0), rgb),
            cylinder(r * 1.02, 0.04, (0, s.h - 0.02, 0), shade(rgb, 0.7)),
        ]
    )


# ---- dining / office -----------------------------------------------------------------------------------


def table(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    if abs(s.w - s.d) < 0.05:
        r = s.w / 2
        return merge(
            [
                cylinder(r, 0.04, (0, s.h - 0.02, 0), rgb, sections=32),
                cylinder(0.05, s.h - 0.04, (0, (s.h - 0.04) / 2, 0), WOOD_DARK),
                cylinder(r * 0.45, 0.03, (0, 0.015, 0), WOOD_DARK),
            ]
        )
    return merge(
        [box(s.w, 0.04, s.d, (0, s.h - 0.02, 0), rgb), *four_legs(s, s.h - 0.04, 0.06, 0.06, shade(rgb, 0.7))]
    )


def chair(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    seat_y = 0.45
    legs = shade(rgb, 0.6) if rgb != COLORS["black"] else METAL
    return merge(
        [
            box(s.w, 0.05, s.d, (0, seat_y - 0.025, 0), rgb),
            *four_legs(Size(s.w, s.d, 0), seat_y - 0.05, 0.03, 0.035, legs),
            box(
                s.w,
                s.h - seat_y - 0.1,
                0.04,
                (0, seat_y + 0.1 + (s.h - seat_y - 0.1) / 2, -s.d / 2 + 0.02),
                rgb,
            ),
            box(0.035, 0.1, 0.035, (-s.w / 2 + 0.03, seat_y + 0.05, -s.d / 2 + 0.02), legs),
            box(0.035, 0.1, 0.035, (s.w / 2 - 0.03, seat_y + 0.05, -s.d / 2 + 0.02), legs),
        ]
    )


def desk(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    top = 0.035
    drawer_w = min(0.42, s.w * 0.35)
    return merge(
        [
            box(s.w, top, s.d, (0, s.h - top / 2, 0), rgb),
            box(0.04, s.h - top, s.d - 0.04, (-s.w / 2 + 0.02, (s.h - top) / 2, 0), shade(rgb, 0.8)),
            box(
                drawer_w,
                s.h - top,
                s.d - 0.04,
                (s.w / 2 - drawer_w / 2, (s.h - top) / 2, 0),
                shade(rgb, 0.8),
            ),
            box(
                s.w - drawer_w - 0.04,
                0.3,
                0.02,
                (-drawer_w / 2, s.h - top - 0.15, -s.d / 2 + 0.05),
                shade(rgb, 0.8),
            ),
            box(
                drawer_w - 0.04,
                0.2,
                0.015,
                (s.w / 2 - drawer_w / 2, s.h - 0.16, s.d / 2 - 0.01),
                shade(rgb, 0.95),
            ),
            box(
                drawer_w - 0.04, 0.4, 0.015, (s.w / 2 - drawer_w / 2, 0.28, s.d / 2 - 0.01), shade(rgb, 0.95)
            ),
        ]
    )


def laptop(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    base_h = 0.02
    lid_len = s.h - base_h
    tilt = np.deg2rad(15.0)
    lid = box(s.w, lid_len, 0.012, (0, lid_len / 2, 0), rgb)
    screen = box(s.w - 0.03, lid_len - 0.03, 0.004, (0, lid_len / 2, 0.008), SCREEN)
    hinge = trimesh.transformations.translation_matrix(
        (0, base_h, -s.d / 2 + 0.01)
    ) @ trimesh.transformations.rotation_matrix(-tilt, [1, 0, 0])
    lid, screen = lid.transformed(hinge), screen.transformed(hinge)
    return merge(
        [
            box(s.w, base_h, s.d, (0, base_h / 2, 0), rgb),
            box(s.w - 0.04, 0.003, s.d * 0.45, (0, base_h + 0.0015, -s.d * 0.05), SCREEN),
            lid,
            screen,
        ]
    )


def cabinet(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    parts = [
        box(s.w, s.h - 0.05, s.d, (0, 0.05 + (s.h - 0.05) / 2, 0), rgb),
        *four_legs(s, 0.05, 0.04, 0.04, WOOD_DARK),
    ]
    doors = 2 if s.w > 0.6 else 1
    for i in range(doors):
        cx = -s.w / 2 + s.w * (i + 0.5) / doors
        parts.append(
            box(
                s.w / doors - 0.03,
                s.h - 0.11,
                0.015,
                (cx, 0.05 + (s.h - 0.05) / 2, s.d / 2 + 0.007),
                shade(rgb, 0.88),
            )
        )
        parts.append(
            ellipsoid(
                (0.02, 0.02, 0.02),
                (cx + (0.1 if i == 0 and doors == 2 else -0.1), s.h * 0.6, s.d / 2 + 0.03),
                METAL,
            )
        )
    return merge(parts)


# ---- bathroom ------------------------------------------------------------------------------------------


def toilet(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    tank_d = 0.2
    bowl_len = s.d - tank_d
    bowl_c = -s.d / 2 + tank_d + bowl_len / 2
    seat = ring(0.1, s.w / 2, 0.03, rgb)
    seat = Part(seat.vertices * (1.0, 1.0, bowl_len / s.w) + (0, 0.42, bowl_c), seat.faces, rgb)
    return merge(
        [
            box(s.w * 0.5, 0.3, bowl_len * 0.6, (0, 0.15, bowl_c - 0.03), PORCELAIN),
            box(s.w * 0.6, 0.42, tank_d + 0.1, (0, 0.21, -s.d / 2 + tank_d / 2 + 0.05), PORCELAIN),
            ellipsoid((s.w / 2 * 0.92, 0.12, bowl_len / 2 * 0.95), (0, 0.3, bowl_c), PORCELAIN),
            seat,
            box(s.w, s.h - 0.42, tank_d, (0, 0.42 + (s.h - 0.42) / 2, -s.d / 2 + tank_d / 2), PORCELAIN),
            box(s.w + 0.02, 0.03, tank_d + 0.02, (0, s.h - 0.015, -s.d / 2 + tank_d / 2), rgb),
            cylinder(0.02, 0.01, (0, s.h + 0.005, -s.d / 2 + tank_d / 2), CHROME),
        ]
    )


def bathtub(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    wall = 0.07
    return merge(
        [
            box(s.w, 0.1, s.d, (0, 0.05, 0), rgb),
            box(s.w, s.h, wall, (0, s.h / 2, -s.d / 2 + wall / 2), rgb),
            box(s.w, s.h, wall, (0, s.h / 2, s.d / 2 - wall / 2), rgb),
            box(wall, s.h, s.d - 2 * wall, (-s.w / 2 + wall / 2, s.h / 2, 0), rgb),
            box(wall, s.h, s.d - 2 * wall, (s.w / 2 - wall / 2, s.h / 2, 0), rgb),
            box(s.w - 2 * wall - 0.04, 0.01, s.d - 2 * wall - 0.04, (0, 0.105, 0), (176, 206, 222)),
            cylinder(0.02, 0.18, (-s.w / 2 + 0.12, s.h + 0.09, -s.d / 2 + 0.04), CHROME),
            cylinder(0.015, 0.12, (-s.w / 2 + 0.12, s.h + 0.17, -s.d / 2 + 0.1), CHROME, axis="z"),
        ]
    )


def shower(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    tray_h = 0.08
    return merge(
        [
            box(s.w, tray_h, s.d, (0, tray_h / 2, 0), rgb),
            box(s.w - 0.1, 0.005, s.d - 0.1, (0, tray_h + 0.0025, 0), (186, 212, 226)),
            box(
                s.w * 0.5,
                s.h - tray_h,
                0.02,
                (s.w * 0.25, tray_h + (s.h - tray_h) / 2, s.d / 2 - 0.01),
                GLASS,
            ),
            box(s.w, 0.04, 0.04, (0, s.h - 0.02, s.d / 2 - 0.02), CHROME),
            box(0.02, s.h - tray_h, s.d - 0.02, (s.w / 2 - 0.01, tray_h + (s.h - tray_h) / 2, -0.01), GLASS),
            box(
                0.04,
                s.h - tray_h,
                0.04,
                (s.w / 2 - 0.02, tray_h + (s.h - tray_h) / 2, s.d / 2 - 0.02),
                CHROME,
            ),
            cylinder(0.015, s.h - 0.35, (-s.w / 2 + 0.08, (s.h - 0.35) / 2 + 0.2, -s.d / 2 + 0.04), CHROME),
            cylinder(0.1, 0.03, (-s.w / 2 + 0.16, s.h - 0.12, -s.d / 2 + 0.14), CHROME),
        ]
    )


def washing_machine(s: Size, rgb: RGB, rng: np.random.Generator) -> trimesh.Trimesh:
    r = min(s.w, s.h) * 0.3
    door_y = s.h * 0.45
    return merge(
        [
            box(s.w, s.h, s.d - 0.02, (0, s.h / 2, -0.01), rgb),
            box(s.w, 0.12, 0.02, (0, s.h - 0.06, s.d / 2 - 0.01), shade(rgb, 0.85)),
            cylinder(0.025, 0.03, (s.w * 0.3, s.h - 0.06, s.d / 2 + 0.01), CHROME, axis="z"),
            cylinder(r, 0.03, (0, door_y, s.d / 2 - 0.005), CHROME, axis="z", sections=28),
            cylinder(r * 0.78, 0.02, (0, door_y, s.d / 2 + 0.015), SCREEN, axis="z", sections=28),
        ]
    )
