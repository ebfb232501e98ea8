"""The object categories of the synthetic homes: how each is built (tango.scenes.models_living,
models_utility), its nominal size, the colours and materials it may be described with, and where it mounts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh

from tango.scenes.models_living import (
    armchair,
    bed,
    bookshelf,
    clock,
    coffee_table,
    couch,
    lamp,
    mirror,
    nightstand,
    picture,
    pillow,
    plant,
    tv,
    tv_stand,
    vase,
    wardrobe,
)
from tango.scenes.models_utility import (
    bathtub,
    cabinet,
    chair,
    counter,
    desk,
    laptop,
    microwave,
    oven,
    refrigerator,
    shower,
    sink,
    stool,
    table,
    toilet,
    trash_can,
    washing_machine,
)
from tango.scenes.parts import COLORS, Builder, Size


@dataclass(frozen=True)
class CategorySpec:
    """How a category is built and described: nominal size, allowed colours and materials, where it mounts."""

    builder: Builder
    size: Size
    colors: tuple[str, ...]
    materials: tuple[str, ...] = ()
    mount: str = "floor"  # floor | wall | top


_WOODS = ("brown", "beige", "white", "black")
_FABRICS = ("gray", "blue", "red", "green", "beige", "brown", "yellow", "purple", "orange", "pink")
_APPLIANCES = ("white", "gray", "black")

CATEGORIES: dict[str, CategorySpec] = {
    "bed": CategorySpec(bed, Size(1.6, 2.05, 1.0), _FABRICS, ("fabric",)),
    "pillow": CategorySpec(pillow, Size(0.55, 0.35, 0.14), _FABRICS + ("white",), ("fabric",), "top"),
    "nightstand": CategorySpec(nightstand, Size(0.48, 0.4, 0.55), _WOODS, ("wood",)),
    "wardrobe": CategorySpec(wardrobe, Size(1.2, 0.6, 2.0), _WOODS, ("wood",)),
    "lamp": CategorySpec(
        lamp,
        Size(0.4, 0.4, 1.55),
        ("white", "beige", "yellow", "red", "blue", "green", "orange"),
        ("fabric",),
    ),
    "mirror": CategorySpec(
        mirror, Size(0.6, 0.04, 0.85), ("black", "white", "brown", "gray", "yellow"), ("glass",), "wall"
    ),
    "picture": CategorySpec(
        picture,
        Size(0.8, 0.04, 0.6),
        ("blue", "red", "green", "yellow", "orange", "purple", "pink"),
        (),
        "wall",
    ),
    "clock": CategorySpec(
        clock, Size(0.36, 0.05, 0.36), ("black", "red", "brown", "blue", "white"), ("plastic",), "wall"
    ),
    "couch": CategorySpec(couch, Size(2.0, 0.9, 0.85), _FABRICS, ("fabric", "leather")),
    "armchair": CategorySpec(armchair, Size(0.85, 0.85, 0.85), _FABRICS, ("fabric", "leather")),
    "coffee table": CategorySpec(coffee_table, Size(1.0, 0.55, 0.42), _WOODS + ("gray",), ("wood", "glass")),
    "tv": CategorySpec(tv, Size(1.1, 0.2, 0.72), ("black", "gray"), ("plastic",), "top"),
    "tv stand": CategorySpec(tv_stand, Size(1.5, 0.42, 0.5), _WOODS, ("wood",)),
    "bookshelf": CategorySpec(bookshelf, Size(0.9, 0.32, 1.8), _WOODS, ("wood",)),
    "vase": CategorySpec(
        vase,
        Size(0.16, 0.16, 0.32),
        ("blue", "white", "red", "green", "yellow", "purple", "orange"),
        ("ceramic", "glass"),
        "top",
    ),
    "plant": CategorySpec(
        plant, Size(0.5, 0.5, 1.0), ("white", "brown", "gray", "red", "blue", "orange"), ("ceramic",)
    ),
    "refrigerator": CategorySpec(refrigerator, Size(0.75, 0.7, 1.8), _APPLIANCES, ("metal",)),
    "oven": CategorySpec(oven, Size(0.6, 0.62, 0.88), _APPLIANCES, ("metal",)),
    "microwave": CategorySpec(microwave, Size(0.5, 0.36, 0.3), _APPLIANCES, ("metal",), "top"),
    "counter": CategorySpec(
        counter, Size(1.6, 0.62, 0.9), ("white", "gray", "brown", "beige", "blue", "green"), ("wood",)
    ),
    "sink": CategorySpec(sink, Size(0.55, 0.45, 0.9), ("white", "gray"), ("ceramic", "metal")),
    "stool": CategorySpec(
        stool, Size(0.38, 0.38, 0.65), ("red", "black", "white", "brown", "yellow", "blue"), ("wood", "metal")
    ),
    "trash can": CategorySpec(
        trash_can, Size(0.32, 0.32, 0.5), ("gray", "black", "white", "green", "blue"), ("plastic", "metal")
    ),
    "table": CategorySpec(table, Size(1.5, 0.9, 0.76), _WOODS + ("gray",), ("wood", "glass")),
    "chair": CategorySpec(chair, Size(0.46, 0.48, 0.92), _WOODS + _FABRICS, ("wood", "fabric", "plastic")),
    "desk": CategorySpec(desk, Size(1.3, 0.65, 0.75), _WOODS + ("gray",), ("wood",)),
    "laptop": CategorySpec(
        laptop, Size(0.34, 0.24, 0.24), ("gray", "black", "white"), ("metal", "plastic"), "top"
    ),
    "cabinet": CategorySpec(cabinet, Size(1.0, 0.45, 0.9), _WOODS + ("gray", "blue", "green"), ("wood",)),
    "toilet": CategorySpec(toilet, Size(0.4, 0.68, 0.78), ("white", "black", "gray", "brown"), ("ceramic",)),
    "bathtub": CategorySpec(bathtub, Size(1.65, 0.75, 0.55), ("white", "beige"), ("ceramic",)),
    "shower": CategorySpec(shower, Size(0.9, 0.9, 2.0), ("white", "gray"), ("glass",)),
    "washing machine": CategorySpec(washing_machine, Size(0.6, 0.6, 0.85), _APPLIANCES, ("metal",)),
}


def build_object(category: str, size: Size, color: str, rng: np.random.Generator) -> trimesh.Trimesh:
    """Build one instance of `category` at `size` whose main parts have the named `color`."""
    spec = CATEGORIES[category]
    return spec.builder(size, COLORS[color], rng)
