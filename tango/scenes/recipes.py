"""What each room type holds and how its objects relate (pillows on beds, chairs around tables, tv on a stand)."""

from __future__ import annotations

from collections.abc import Callable

from tango.scenes.furnish import RoomFurnisher
from tango.scenes.objects import CATEGORIES
from tango.scenes.parts import Size
from tango.scenes.placed import PlacedObject, wall_side

UPRIGHT_PILLOW = Size(0.42, 0.16, 0.4)
TABLE_LAMP = Size(0.3, 0.3, 0.5)
KITCHEN_SINK = Size(0.6, 0.46, 0.32)
DESK_LAMP = Size(0.22, 0.22, 0.42)
SMALL_PLANT = Size(0.3, 0.3, 0.5)
ROUND_TABLE = Size(1.0, 1.0, 0.76)
SHOE_CABINET = Size(0.8, 0.35, 0.8)
OPPOSITE = {"z0": "z1", "z1": "z0", "x0": "x1", "x1": "x0"}


def _maybe(f: RoomFurnisher, p: float) -> bool:
    return bool(f.rng.random() < p)


def _decorate(f: RoomFurnisher, pictures: int, clock: float, plant: float) -> None:
    for _ in range(pictures):
        f.on_wall(f.make("picture"), (1.25, 1.6))
    if _maybe(f, clock):
        f.on_wall(f.make("clock"), (1.35, 1.55))
    if _maybe(f, plant):
        f.against_wall(f.make("plant"))


def _pillows(f: RoomFurnisher, seat: PlacedObject | None, count: int, upright: bool) -> None:
    """Pillows lying at a bed's head, or cushions leaning against a couch's back."""
    spots = [(0.25, 0.4), (0.75, 0.4)] if count == 2 else [(0.5, 0.4)]
    for spot in spots:
        cand = f.make("pillow", (0.8, 1.05), base=UPRIGHT_PILLOW) if upright else f.make("pillow", (0.7, 1.0))
        f.on_top(seat, cand, [(spot[0], 0.2)] if upright else [spot])


def living_room(f: RoomFurnisher) -> None:
    couch = f.against_wall(f.make("couch"))
    if couch is not None:
        _pillows(f, couch, 2, upright=True)
        table = f.in_front(couch, f.make("coffee table"), wall_side(couch), 0.4, facing_anchor=False)
        if _maybe(f, 0.6):
            f.on_top(table, f.make("vase"))
        if _maybe(f, 0.3):
            f.on_top(table, f.make("laptop"))
    stand = f.against_wall(f.make("tv stand"), prefer=OPPOSITE[wall_side(couch)] if couch else None)
    if stand is not None and stand.surface_local is not None:
        widest = stand.surface_local.width / (CATEGORIES["tv"].size.w * 1.05)
        f.on_top(stand, f.make("tv", (min(0.75, widest), min(1.15, widest))), [(0.5, 0.5)])
    for _ in range(1 + int(_maybe(f, 0.5))):
        f.against_wall(f.make("armchair"))
    if _maybe(f, 0.7):
        f.against_wall(f.make("bookshelf"))
    if _maybe(f, 0.6):
        f.against_wall(f.make("lamp"))
    _decorate(f, pictures=2, clock=0.6, plant=0.9)


def kitchen(f: RoomFurnisher) -> None:
    counter = f.against_wall(f.make("counter", (0.95, 1.05), stretch=(0.9, 1.4)))
    f.on_top(counter, f.make("sink", base=KITCHEN_SINK), [(0.28, 0.5), (0.72, 0.5), (0.5, 0.5)])
    f.on_top(counter, f.make("microwave"))
    for category in ("oven", "refrigerator"):
        cand = f.make(category)
        placed = None
        if counter is not None:
            placed = f.beside(counter, cand, wall_side(counter), right=_maybe(f, 0.5)) or f.beside(
                counter, cand, wall_side(counter), right=True
            )
        if placed is None:
            f.against_wall(cand)
    table = f.in_middle(f.make("table", (0.75, 0.9)))
    if table is not None:
        f.around(table, lambda: f.make("chair"), 2 + int(f.rng.integers(3)))
        if _maybe(f, 0.5):
            f.on_top(table, f.make("vase"))
    else:
        for _ in range(2):
            f.against_wall(f.make("stool"))
    f.against_wall(f.make("trash can"))
    _decorate(f, pictures=int(_maybe(f, 0.5)), clock=0.7, plant=0.4)


def bedroom(f: RoomFurnisher) -> None:
    bed = f.against_wall(f.make("bed", (0.8, 1.1)))
    if bed is not None:
        _pillows(f, bed, 2 if min(bed.footprint.width, bed.footprint.depth) > 1.25 else 1, upright=False)
        for right in (False, True):
            stand = f.beside(bed, f.make("nightstand"), wall_side(bed), right=right)
            if stand is not None and (not right or _maybe(f, 0.5)):
                f.on_top(stand, f.make("lamp", base=TABLE_LAMP))
    f.against_wall(f.make("wardrobe"))
    if _maybe(f, 0.4):
        f.against_wall(f.make("chair"))
    if _maybe(f, 0.4):
        f.on_wall(f.make("mirror"), (0.9, 1.1))
    _decorate(f, pictures=1, clock=0.4, plant=0.5)


def bathroom(f: RoomFurnisher) -> None:
    f.against_wall(f.make("toilet"))
    basin = f.against_wall(f.make("sink"))
    f.on_wall(f.make("mirror"), (1.15, 1.3), prefer=wall_side(basin) if basin else None)
    wet = ["bathtub", "shower"] if _maybe(f, 0.5) else ["shower", "bathtub"]
    if f.against_wall(f.make(wet[0])) is None:
        f.against_wall(f.make(wet[1]))
    if _maybe(f, 0.6):
        f.against_wall(f.make("washing machine"))
    if _maybe(f, 0.5):
        f.against_wall(f.make("trash can", (0.7, 0.85)))


def office(f: RoomFurnisher) -> None:
    desk = f.against_wall(f.make("desk"))
    if desk is not None:
        f.in_front(desk, f.make("chair"), wall_side(desk), 0.06, facing_anchor=True)
        f.on_top(desk, f.make("laptop"), [(0.4, 0.5), (0.3, 0.5)])
        if _maybe(f, 0.6):
            f.on_top(desk, f.make("lamp", base=DESK_LAMP), [(0.1, 0.3), (0.9, 0.3)])
    for _ in range(1 + int(_maybe(f, 0.5))):
        f.against_wall(f.make("bookshelf"))
    if _maybe(f, 0.5):
        f.against_wall(f.make("cabinet"))
    if _maybe(f, 0.3):
        f.against_wall(f.make("armchair"))
    _decorate(f, pictures=1, clock=0.5, plant=0.7)


def dining_room(f: RoomFurnisher) -> None:
    round_table = _maybe(f, 0.3)
    table = f.in_middle(f.make("table", base=ROUND_TABLE) if round_table else f.make("table"))
    if table is not None:
        f.around(table, lambda: f.make("chair"), 4 + int(f.rng.integers(3)))
        f.on_top(table, f.make("vase"), [(0.5, 0.5)])
    cabinet = f.against_wall(f.make("cabinet"))
    if _maybe(f, 0.5):
        f.on_top(cabinet, f.make("plant", base=SMALL_PLANT))
    if _maybe(f, 0.4):
        f.against_wall(f.make("lamp"))
    _decorate(f, pictures=2, clock=0.5, plant=0.6)


def hallway(f: RoomFurnisher) -> None:
    f.against_wall(f.make("cabinet", base=SHOE_CABINET))
    f.on_wall(f.make("mirror"), (0.9, 1.1))
    _decorate(f, pictures=1, clock=0.5, plant=0.7)


RECIPES: dict[str, Callable[[RoomFurnisher], None]] = {
    "living room": living_room,
    "kitchen": kitchen,
    "bedroom": bedroom,
    "bathroom": bathroom,
    "office": office,
    "dining room": dining_room,
    "hallway": hallway,
}

# Extra objects a room may take when a scene is short of instances.
FILLERS: dict[str, tuple[str, ...]] = {
    "living room": ("plant", "lamp", "picture", "chair"),
    "kitchen": ("stool", "plant", "picture"),
    "bedroom": ("plant", "picture", "lamp", "chair"),
    "bathroom": ("plant", "trash can"),
    "office": ("plant", "picture", "chair", "lamp"),
    "dining room": ("plant", "picture", "chair"),
    "hallway": ("plant", "picture", "trash can"),
}


def add_filler(f: RoomFurnisher, category: str) -> PlacedObject | None:
    """One extra object of `category` in its usual mount."""
    if category == "picture":
        return f.on_wall(f.make("picture"), (1.25, 1.6))
    return f.against_wall(f.make(category))
