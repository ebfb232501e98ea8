"""What common household objects are for, one dictionary-style phrase each: the everyday knowledge the ORACLE
answerer matches questions about a need ("where could I ...?") against, by MiniLM similarity.

This is world knowledge, not scene ground truth: it says what a kind of object is for, never where one is or
whether the scene has one. A category missing here is matched by its name alone.
"""

from __future__ import annotations

USES: dict[str, str] = {
    "armchair": "a comfortable padded chair with arms, for sitting back and relaxing",
    "bathtub": "a large tub to take a bath in, lying in warm water",
    "bed": "furniture to sleep or rest on",
    "bookshelf": "shelves holding books, novels and reference works for reading",
    "cabinet": "a cupboard with doors for storing dishes, tools or supplies",
    "chair": "a seat for one person at a table or desk",
    "clock": "shows the current time and hour",
    "coffee table": "a low living-room table for drinks, magazines and remote controls",
    "couch": "a long upholstered sofa to sit or lie on while relaxing in front of the television",
    "counter": "a kitchen worktop for chopping and preparing food",
    "desk": "a table for working, writing, studying or using a computer",
    "lamp": "gives light to read by or to brighten a dark room",
    "laptop": "a portable computer for email, browsing the internet, writing documents and video calls",
    "microwave": "an appliance that heats, reheats or defrosts food in minutes",
    "mirror": "reflective glass to see yourself and check your appearance",
    "nightstand": "a small bedside table for a lamp, an alarm or a book",
    "oven": "an appliance that bakes, roasts and cooks food with dry heat",
    "picture": "a framed painting, print or photograph hung on a wall as decoration",
    "pillow": "a soft cushion to rest your head on",
    "plant": "a living potted plant with leaves that needs watering and sunlight",
    "refrigerator": "a fridge that keeps food and drink cold and fresh so it does not spoil",
    "shower": "sprays water over you to wash your body standing up",
    "sink": "a basin with a tap and running water for washing hands, face or dishes",
    "stool": "a simple seat without a back or arms",
    "table": "furniture with a flat top to eat meals at or put things on",
    "toilet": "a bathroom fixture to relieve yourself",
    "trash can": "a bin for rubbish, garbage and waste",
    "tv": "a television screen for watching shows, films, news and sports",
    "tv stand": "low furniture that holds a television and media players",
    "vase": "a container that holds cut flowers",
    "wardrobe": "a tall cupboard to hang and store clothes",
    "washing machine": "an appliance that washes clothes and laundry",
}


def use_text(category: str) -> str:
    """The category with what it is for ("sink: a basin ..."), or the bare name when unknown."""
    use = USES.get(category)
    return f"{category}: {use}" if use else category
