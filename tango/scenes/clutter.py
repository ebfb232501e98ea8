"""Clutter and look-alikes: extra objects that make a home harder to search, as real homes are.

After a room's recipe, `add_lookalikes` stands an object of a confusable category beside objects that are
common search targets (an armchair beside a couch, a stool beside a chair, a floor lamp beside a plant, a
picture beside a tv, a trash can beside a toilet, a desk in a room with a table), and `add_clutter` adds a few
of the room's everyday objects. A detector that confuses look-alike classes or fires on clutter then meets
those failures near the goal, not only far from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tango.scenes.furnish import RoomFurnisher
from tango.scenes.placed import PlacedObject, wall_side

LOOKALIKES: dict[str, tuple[str, ...]] = {
    "couch": ("armchair",),
    "chair": ("stool",),
    "plant": ("lamp",),
    "tv": ("picture", "mirror"),
    "toilet": ("trash can",),
    "table": ("desk",),
    "bed": ("wardrobe",),
}
"""Target category -> confusable categories placed next to its instances (wall-mounted ones hung nearby)."""

CLUTTER: dict[str, tuple[str, ...]] = {
    "living room": ("plant", "lamp", "picture", "stool", "cabinet", "trash can", "armchair"),
    "kitchen": ("stool", "trash can", "cabinet", "plant", "picture"),
    "bedroom": ("plant", "lamp", "picture", "chair", "cabinet", "trash can"),
    "bathroom": ("plant", "trash can", "cabinet"),
    "office": ("plant", "lamp", "picture", "chair", "trash can", "cabinet"),
    "dining room": ("plant", "picture", "cabinet", "stool", "lamp"),
    "hallway": ("plant", "picture", "cabinet", "trash can", "lamp"),
}
"""Everyday objects a room type may hold beyond its recipe."""

WALL_MOUNTED = {"picture": (1.25, 1.6), "mirror": (0.9, 1.3)}
"""Categories that hang on a wall, with the height range of their bottom edge (metres)."""


@dataclass(frozen=True)
class ClutterConfig:
    """How much clutter: probability of a look-alike beside each target instance, clutter objects per room."""

    lookalike_probability: float = 0.0
    min_clutter: int = 0
    max_clutter: int = 0
    free_standing: float = 0.0
    """Probability that a clutter object stands free in the room's open middle, hiding what lies behind it from a
    camera at 0.88 m, instead of against a wall; 0 draws nothing (the synthetic-v3 homes, draw for draw)."""


def _place(f: RoomFurnisher, category: str, anchor: PlacedObject | None) -> PlacedObject | None:
    """One `category` object next to `anchor` (against the same wall) when it can stand there, else anywhere
    along a wall of the room."""
    if anchor is not None and anchor.mount == "top":
        anchor = anchor.support  # a tv: beside its stand
    if category in WALL_MOUNTED:
        prefer = wall_side(anchor) if anchor is not None else None
        return f.on_wall(f.make(category), WALL_MOUNTED[category], prefer=prefer)
    if anchor is not None and anchor.mount == "floor":
        side = wall_side(anchor)
        right = bool(f.rng.random() < 0.5)
        for first in (right, not right):
            placed = f.beside(anchor, f.make(category), side, right=first, gap=0.15)
            if placed is not None:
                return placed
    return f.against_wall(f.make(category))


def add_lookalikes(f: RoomFurnisher, config: ClutterConfig) -> None:
    """A confusable object beside each target instance of the room, each with `lookalike_probability` (no
    random draw at all when it is 0, so homes without look-alikes are the synthetic-v2 homes, draw for draw)."""
    if config.lookalike_probability <= 0:
        return
    for anchor in list(f.objects):
        options = LOOKALIKES.get(anchor.category)
        if options and f.rng.random() < config.lookalike_probability:
            _place(f, options[int(f.rng.integers(len(options)))], anchor)


def add_clutter(f: RoomFurnisher, config: ClutterConfig) -> None:
    """min_clutter..max_clutter everyday objects of the room's type along its walls (those that fit)."""
    if config.max_clutter <= 0:
        return
    options = CLUTTER[f.room.type]
    for _ in range(int(f.rng.integers(config.min_clutter, config.max_clutter + 1))):
        category = options[int(f.rng.integers(len(options)))]
        free = (
            config.free_standing > 0
            and category not in WALL_MOUNTED
            and f.rng.random() < config.free_standing
        )
        if not free or f.in_middle(f.make(category)) is None:
            _place(f, category, None)
