"""Everyday English the question answerers and the OpenEQA report share: colour and material words by the
attribute field they name, and everyday names of room types and household things by the name a scene
annotation gives them. Plain English, no scene's or dataset's vocabulary (nothing here is read from data).
"""

from __future__ import annotations

ATTRIBUTE_WORDS: dict[str, dict[str, str]] = {
    "color": {
        **{w: w for w in ("black", "white", "red", "green", "yellow", "blue", "brown", "purple", "pink")},
        **{w: w for w in ("orange", "gray", "beige", "tan", "cream", "ivory", "navy", "teal", "turquoise")},
        **{w: w for w in ("violet", "maroon", "silver", "gold")},
        "grey": "gray", "golden": "gold",
    },
    "material": {
        **{w: w for w in ("wood", "metal", "steel", "iron", "glass", "plastic", "ceramic", "porcelain")},
        **{w: w for w in ("fabric", "cloth", "cotton", "wool", "linen", "velvet", "leather", "stone")},
        **{w: w for w in ("marble", "granite", "concrete", "wicker", "rattan", "bamboo", "paper")},
        "wooden": "wood", "metallic": "metal",
    },
}  # fmt: skip
"""English words for colours (the eleven basic colour terms and common shades) and materials, by the attribute
field they name, each to its usual spelling in annotations ("grey" -> "gray", "wooden" -> "wood"). A question
that names a value nobody observed still names it: "Is there a green chair?" asks about green chairs even when
no green thing was seen (then the answer is no, not "yes, a chair")."""


def attribute_word(word: str) -> tuple[str, str] | None:
    """(attribute, value) an English colour or material word names, else None."""
    return next(((kind, words[word]) for kind, words in ATTRIBUTE_WORDS.items() if word in words), None)


ENGLISH_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(("washroom", "lavatory", "restroom", "loo", "wc", "powder room", "shower room"), "bathroom"),
    **dict.fromkeys(("lounge", "sitting room", "family room", "den", "front room"), "living room"),
    **dict.fromkeys(("study", "home office", "workroom"), "office"),
    **dict.fromkeys(("corridor", "hall", "passage", "entryway"), "hallway"),
    **dict.fromkeys(("dining area", "eating area"), "dining room"),
    **dict.fromkeys(("laundry", "utility room"), "laundry room"),
    **dict.fromkeys(("settee", "sofa"), "couch"),
    **dict.fromkeys(("telly", "television"), "tv"),
    **dict.fromkeys(("bin", "wastebasket", "garbage can", "rubbish bin", "dustbin"), "trash can"),
    **dict.fromkeys(("cooker", "stove"), "oven"),
    **dict.fromkeys(("painting", "artwork", "photo", "photograph"), "picture"),
    **dict.fromkeys(("bedside table", "night table"), "nightstand"),
    **dict.fromkeys(("closet", "armoire"), "wardrobe"),
    "fridge": "refrigerator", "cupboard": "cabinet", "bookcase": "bookshelf", "washer": "washing machine",
    "houseplant": "plant", "basin": "sink", "tub": "bathtub",
}  # fmt: skip
"""Everyday English names of room types and household objects, to the name a scene annotation gives them. A
name counts only when what it stands for was observed; MiniLM similarity covers other near names, but not
these ("washroom" is nearer "living room" for it, "sitting room" nearer "dining room")."""


def english_synonym(words: list[str]) -> str:
    """The annotation name one or two words stand for ("" for none); plurals by a final "s", "es" or "ies"."""
    phrase = " ".join(words)
    singulars = [phrase]
    if phrase.endswith("ies"):
        singulars.append(phrase[:-3] + "y")
    if phrase.endswith("es"):
        singulars.append(phrase[:-2])
    if phrase.endswith("s"):
        singulars.append(phrase[:-1])
    return next((ENGLISH_SYNONYMS[s] for s in singulars if s in ENGLISH_SYNONYMS), "")
