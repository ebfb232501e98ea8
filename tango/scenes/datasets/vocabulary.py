"""Open-vocabulary goal names for the synthetic HM3D-OVON split: what a person might call an object, when that
is not the annotation's label.

HM3D-OVON's goal names are free text (its val_seen_synonyms and val_unseen splits name objects in words the
training labels do not use), so a detector that only matches a query to its own label list verbatim fails
them. `OPEN_NAMES` lists, per annotation category, synonyms and more specific names that fit every instance
of that category in these homes (tables stand in kitchens and dining rooms only: "dining table"); a category
without an entry keeps its label. Nothing outside the generator reads this table: an evaluation component
that matched names through it would be grading the generator against itself.
"""

from __future__ import annotations

import numpy as np

OPEN_NAMES: dict[str, tuple[str, ...]] = {
    "couch": ("sofa", "settee", "loveseat"),
    "armchair": ("lounge chair", "easy chair", "recliner"),
    "tv": ("television", "tv monitor", "flat screen television"),
    "refrigerator": ("fridge",),
    "trash can": ("garbage bin", "wastebasket", "rubbish bin"),
    "plant": ("potted plant", "houseplant"),
    "picture": ("framed picture", "painting", "wall art"),
    "bookshelf": ("bookcase",),
    "nightstand": ("bedside table", "night table"),
    "wardrobe": ("closet", "armoire"),
    "counter": ("countertop", "kitchen counter"),
    "washing machine": ("washer", "clothes washer"),
    "bathtub": ("tub", "bath"),
    "shower": ("shower stall", "shower cabin"),
    "microwave": ("microwave oven",),
    "oven": ("stove", "cooker"),
    "stool": ("bar stool",),
    "coffee table": ("cocktail table", "low table"),
    "desk": ("writing desk", "work desk"),
    "laptop": ("notebook computer", "laptop computer"),
    "cabinet": ("cupboard", "sideboard"),
    "mirror": ("wall mirror", "looking glass"),
    "clock": ("wall clock",),
    "vase": ("flower vase",),
    "pillow": ("cushion", "throw pillow"),
    "sink": ("washbasin", "basin"),
    "toilet": ("commode", "water closet"),
    "table": ("dining table",),
    "tv stand": ("tv cabinet", "media console"),
}
"""Annotation category -> names that are not annotation labels, each naming every instance of the category."""


def goal_name(category: str, open_fraction: float, rng: np.random.Generator) -> str:
    """The name an episode uses for `category`: one of its open names with probability `open_fraction` (when
    it has any), else the label itself."""
    names = OPEN_NAMES.get(category, ())
    if names and rng.random() < open_fraction:
        return names[int(rng.integers(len(names)))]
    return category
