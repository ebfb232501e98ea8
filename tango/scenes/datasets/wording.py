"""Paraphrase pools for generated questions and descriptions: a `train` pool and a disjoint `heldout` pool.

The evaluation files (the default dataset's OpenEQA questions and GOAT descriptions) are worded from the
held-out pool, so nothing tuned on the training wording (a parser, a prompt, an oracle) can pass by
recognising sentences it has seen. Wording is chosen at random per record; the facts behind it are stored
separately (questions.QuestionFacts, descriptions.DescriptionFacts) for evaluation code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

POOLS = ("train", "heldout")

# "{target}" is a target phrase (TARGETS); other slots are filled from the facts.
QUESTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "identify": {
        "train": ("What is the {color} object next to the {anchor} in the {room}?",),
        "heldout": (
            "In the {room}, which {color} thing stands beside the {anchor}?",
            "Name the {color} item by the {anchor} in the {room}.",
            "There is something {color} close to the {anchor} in the {room}; what is it?",
        ),
    },
    "attribute:color": {
        "train": ("What color is {target}?",),
        "heldout": (
            "Which colour does {target} have?",
            "Tell me the colour of {target}.",
            "How is {target} coloured?",
        ),
    },
    "attribute:material": {
        "train": ("What material is {target} made of?",),
        "heldout": (
            "What is {target} made from?",
            "Which material was used for {target}?",
            "Tell me what {target} is built out of.",
        ),
    },
    "attribute:state": {
        "train": ("What state is {target} in?",),
        "heldout": ("In what condition is {target} right now?", "Describe the current state of {target}."),
    },
    "clear": {
        "train": ("Is {target} clear?",),
        "heldout": (
            "Is the top of {target} empty?",
            "Does {target} have nothing on it?",
            "Is {target} free of clutter?",
        ),
    },
    "locate": {
        "train": ("Where is the {category}?",),
        "heldout": (
            "In which room can I find the {category}?",
            "Where would I go to see the {category}?",
            "Which part of the home has the {category}?",
        ),
    },
    "neighbour": {
        "train": ("What is next to {target}?",),
        "heldout": (
            "What stands beside {target}?",
            "Which object is closest to {target}?",
            "Name the thing right by {target}.",
        ),
    },
    "use": {
        "train": ("Where could I {use}?",),
        "heldout": (
            "If I wanted to {use}, where should I go?",
            "Which spot in this home lets me {use}?",
            "Where is the place to {use}?",
        ),
    },
}

TARGETS: dict[str, tuple[str, ...]] = {
    "train": ("the {category} in the {room}",),
    "heldout": (
        "the {room}'s {category}",
        "the {category} that stands in the {room}",
        "the {category} of the {room}",
    ),
}

# World-knowledge questions name no object: per category, the training question and held-out paraphrases.
KNOWLEDGE: dict[str, dict[str, tuple[str, ...]]] = {
    "refrigerator": {
        "train": ("Which appliance here would keep milk from going sour?",),
        "heldout": (
            "What in this home stops fresh milk from spoiling?",
            "Where would I store milk so it stays fresh?",
        ),
    },
    "microwave": {
        "train": ("Which appliance here heats food using electromagnetic waves?",),
        "heldout": ("What here warms food with microwaves?", "Which device would reheat soup in a minute?"),
    },
    "oven": {
        "train": ("Where would I roast a chicken in this home?",),
        "heldout": ("What here could bake bread?", "Which appliance would I use to roast vegetables?"),
    },
    "plant": {
        "train": ("What in this home needs sunlight and water to grow?",),
        "heldout": ("What here is alive and needs watering?", "Which thing in this home grows leaves?"),
    },
    "clock": {
        "train": ("What here would tell me if I am late for an appointment?",),
        "heldout": ("What could I look at to learn the hour?", "Which object here keeps track of the time?"),
    },
    "washing machine": {
        "train": ("Which appliance here spins while it cleans?",),
        "heldout": (
            "What would I use to launder dirty shirts?",
            "Which machine here cleans clothes with water?",
        ),
    },
    "bathtub": {
        "train": ("What could I fill with warm water to soak in?",),
        "heldout": ("Where could I have a relaxing soak?", "What here can hold enough water to lie down in?"),
    },
    "laptop": {
        "train": ("What here could I use to send an email?",),
        "heldout": (
            "Which device here could I browse the internet on?",
            "What here could I type a report on?",
        ),
    },
    "tv": {
        "train": ("What here could I use to watch a football match?",),
        "heldout": ("What here shows the evening news?", "Which device here plays films on a screen?"),
    },
    "bookshelf": {
        "train": ("Where in this home would a dictionary most likely be kept?",),
        "heldout": ("Where would I look for a novel to read?", "Which furniture here holds books?"),
    },
}

DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "train": ("the {thing} in the {room}{near}",),
    "heldout": (
        "the {thing} located in the {room}{near}",
        "in the {room}, the {thing}{near}",
        "the {thing} that you can find in the {room}{near}",
    ),
}
NEAR: dict[str, tuple[str, ...]] = {
    "train": (", next to {objects}",),
    "heldout": (" beside {objects}", ", close to {objects}", " near {objects}"),
}


def check_pool(pool: str) -> str:
    """The pool name, or ValueError naming the pools."""
    if pool not in POOLS:
        raise ValueError(f"wording pool must be one of {POOLS}, got {pool!r}")
    return pool


def pick(options: tuple[str, ...], rng: np.random.Generator) -> str:
    """One of the options, uniformly at random."""
    return options[int(rng.integers(len(options)))]


def target_phrase(category: str, room: str | None, pool: str, rng: np.random.Generator) -> str:
    """ "the couch in the living room" (or a paraphrase); "the couch" when the room is unknown."""
    if room is None:
        return f"the {category}"
    return pick(TARGETS[check_pool(pool)], rng).format(category=category, room=room)


def question_text(facts: dict[str, Any], pool: str, rng: np.random.Generator) -> str:
    """The wording of a question about `facts` (questions.QuestionFacts.as_dict()) from the pool."""
    kind = facts["kind"]
    if kind == "knowledge":
        return pick(KNOWLEDGE[facts["category"]][check_pool(pool)], rng)
    key = f"attribute:{facts['attribute']}" if kind == "attribute" else kind
    template = pick(QUESTIONS[key][check_pool(pool)], rng)
    slots = {k: v for k, v in facts.items() if isinstance(v, str)}
    target = facts.get("target")
    if isinstance(target, dict):
        slots["target"] = target_phrase(target["category"], target.get("room"), pool, rng)
        slots.setdefault("category", target["category"])
    text = template.format(**slots)
    return text[0].upper() + text[1:]


def description_text(
    thing: str, room: str | None, near: list[str], pool: str, rng: np.random.Generator
) -> str:
    """A GOAT lang_desc: `thing` ("red wooden chair"), its room and the objects it stands near."""
    objects = " and ".join(f"the {n}" for n in near)
    near_text = pick(NEAR[check_pool(pool)], rng).format(objects=objects) if near else ""
    if room is None:
        return f"the {thing}{near_text}"
    return pick(DESCRIPTIONS[pool], rng).format(thing=thing, room=room, near=near_text)
