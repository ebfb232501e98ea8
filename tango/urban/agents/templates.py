"""Template programs of the urban toolbox, one per kind, filled from the instruction text alone.

They read what the instruction says (a goal's coordinates, the places named in a request or a schedule, the
question) and nothing else. For implicit needs a small keyword lexicon stands in for an LLM's inference of the
kind of place (written by hand, not taken from the task generator's sentences).
"""

from __future__ import annotations

import re

from tango.urban.kinds import Kind

_GOAL = re.compile(r"^Goal:.*?\((-?\d+\.\d+),\s*(-?\d+\.\d+)", re.MULTILINE)
_VISITS = re.compile(r"visit (.+?)\.\s", re.IGNORECASE)
_STOPS = re.compile(r"\bat ([A-Z][\w' ]+?)\.", re.MULTILINE)
NEEDS = {
    "bank": ("money", "deposit", "savings", "account", "cash"),
    "pharmacy": ("pharmacy", "painkiller", "headache", "prescription", "medicine"),
    "cafe": ("coffee", "latte", "espresso", "cafe"),
    "optician": ("eye", "eyes", "glasses", "optician", "spectacles"),
    "bakery": ("bread", "cake", "bakery", "pastry"),
    "bookstore": ("book", "novel", "guidebook", "bookshop", "read"),
    "supermarket": ("groceries", "milk", "eggs", "supermarket", "food shopping"),
    "hardware": ("screwdriver", "nails", "shelf", "hardware", "tools"),
    "florist": ("roses", "bouquet", "flowers", "florist"),
    "art_supplies": ("watercolour", "paint", "sketchbook", "brushes", "art supply"),
    "phone_shop": ("phone", "sim", "mobile"),
    "clinic": ("fever", "doctor", "vaccination", "clinic"),
    "post_office": ("parcel", "stamps", "post office", "letter"),
    "restaurant": ("noodle", "noodles", "lunch", "hungry", "dinner"),
    "laundry": ("shirts", "washing", "ironing", "dry-clean", "laundry"),
    "gym": ("work out", "weights", "gym", "exercise"),
}


class TemplateError(ValueError):
    """The instruction does not say what the kind's template needs (the message says what is missing)."""


def _category(text: str) -> str:
    lowered = text.lower()
    scores = {category: sum(word in lowered for word in words) for category, words in NEEDS.items()}
    best = max(scores, key=lambda category: scores[category])
    if not scores[best]:
        raise TemplateError(f"no kind of place is recognisable in {text!r}")
    return best


def _request(instruction: str, field: str) -> str:
    match = re.search(rf"^{field}:\s*(.+)$", instruction, re.MULTILINE)
    if not match:
        raise TemplateError(f"the instruction has no '{field}:' line")
    return match.group(1)


def _names(text: str) -> list[str]:
    return [part.strip() for part in re.split(r",\s*|\s+and\s+", text) if part.strip()]


def template_program(kind: Kind, instruction: str) -> str:
    """The program text for a kind's instruction; TemplateError when the text lacks what it needs."""
    if kind.family == "qa":
        if kind.base == "OQ":
            place = re.search(r"Where is (.+?) relative", instruction)
            if not place:
                raise TemplateError("the orientation question names no place")
            return (
                f"look_around()\nside = relative_direction({place.group(1)!r})\n"
                "answer(choose(options, [side]))\n"
            )
        if kind.base == "SQ":
            return (
                'best = ""\nshortest = 1000000\nfor i in range(4):\n    p = locate(options[i])\n'
                "    if len(p) == 2:\n        d = walking_distance(p[0], p[1])\n        if d < shortest:\n"
                "            shortest = d\n            best = letters[i]\nanswer(best)\n"
            )
        return "seen = look_around()\nanswer(choose(options, seen))\n"
    if kind.family == "place_search" or kind.base == "II":
        need = _request(instruction, "Request" if kind.family == "place_search" else "Everyday goal")
        return f"place = find_nearest({_category(need)!r})\nif len(place) == 2:\n    walk_to(place[0], place[1])\n"
    if kind.family == "multipoint":
        visits = _VISITS.search(instruction)
        if not visits:
            raise TemplateError("the instruction names no places to visit")
        return (
            f"stops = plan_visits({_names(visits.group(1))!r})\nfor stop in stops:\n"
            "    walk_to(stop[0], stop[1])\n"
        )
    if kind.family == "schedule":
        stops = _STOPS.findall(instruction)
        if not stops:
            raise TemplateError("the schedule names no places")
        return (
            f"for name in {[s.strip() for s in stops]!r}:\n    place = locate(name)\n    if len(place) == 2:\n"
            "        walk_to(place[0], place[1])\n"
        )
    goal = _GOAL.search(instruction)
    if not goal:
        raise TemplateError("the instruction has no 'Goal:' point")
    return f"walk_to({goal.group(1)}, {goal.group(2)})\n"
