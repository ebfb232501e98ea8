"""The urban toolbox: city primitives registered in the same registry as every other toolbox.

`ctx.agent` is an UrbanBackend. Points are [lat, lon] lists (WGS84, as task texts give them); an empty list
means "not found". QA programs read the bound inputs `options` (the four option texts) and `letters`.
"""

from __future__ import annotations

from tango.primitives.context import AgentContext
from tango.primitives.registry import define_input, define_toolbox, primitive
from tango.urban.agents.backend import choose as choose_option

TOOLBOX = "urban"

define_toolbox(
    TOOLBOX, description="City tasks through the UrbanGround API: look, read signs and the map, walk."
)
define_input(TOOLBOX, "options", "list", "The four answer options of a multiple-choice question (texts).")
define_input(TOOLBOX, "letters", "list", 'The option letters ["A", "B", "C", "D"], in the order of options.')


@primitive(toolbox=TOOLBOX)
def look_around(ctx: AgentContext) -> list:
    """Turn a full circle in six steps and read the signs in every view; returns the names seen."""
    return ctx.agent.look_around()


@primitive(toolbox=TOOLBOX)
def read_signs(ctx: AgentContext) -> list:
    """The shop and landmark names legible in the current view."""
    return ctx.agent.read_signs()


@primitive(toolbox=TOOLBOX)
def detect(ctx: AgentContext, label: str) -> list:
    """Names legible in the current view that contain the label's words (e.g. detect("pharmacy"))."""
    words = label.lower().split()
    return [name for name in ctx.agent.read_signs() if all(w in name.lower() for w in words)]


@primitive(toolbox=TOOLBOX)
def where_am_i(ctx: AgentContext) -> list:
    """Your position [lat, lon] from the app's state."""
    return list(ctx.agent.episode.position)


@primitive(toolbox=TOOLBOX)
def relative_direction(ctx: AgentContext, name: str) -> str:
    """Where a place you have seen lies relative to your heading at the start: front, right, behind or left
    ("" if you have not seen it; call look_around first)."""
    return ctx.agent.relative_direction(name)


@primitive(toolbox=TOOLBOX)
def locate(ctx: AgentContext, place: str) -> list:
    """Find a place by its name on the map view; returns its [lat, lon], or [] when the map does not show it."""
    return ctx.agent.locate(place)


@primitive(toolbox=TOOLBOX)
def find_nearest(ctx: AgentContext, category: str) -> list:
    """The nearest place of a category on the map (bank, pharmacy, cafe, optician, bakery, bookstore,
    supermarket, hardware, florist, art_supplies, phone_shop, clinic, post_office, restaurant, laundry, gym),
    by walking distance; its [lat, lon], or []."""
    return ctx.agent.find_nearest(category)


@primitive(toolbox=TOOLBOX)
def walking_distance(ctx: AgentContext, lat: float, lon: float) -> float:
    """Metres to walk from here to a point along the pedestrian ways of the map (1000000 if no way is known)."""
    return float(ctx.agent.walking_distance(lat, lon))


@primitive(toolbox=TOOLBOX)
def plan_visits(ctx: AgentContext, places: list) -> list:
    """The named places ordered for the shortest walk visiting all of them from here; a list of [lat, lon]."""
    return ctx.agent.plan_visits([str(place) for place in places])


@primitive(toolbox=TOOLBOX)
def walk_to(ctx: AgentContext, lat: float, lon: float) -> bool:
    """Walk to a point along the pedestrian ways shown on the map, around closures; True when there."""
    return bool(ctx.agent.walk_to(float(lat), float(lon)))


@primitive(toolbox=TOOLBOX)
def choose(ctx: AgentContext, options: list, evidence: list) -> str:
    """The letter of the option that best matches the evidence (a list of texts), or "" if none does."""
    return choose_option([str(o) for o in options], [str(e) for e in evidence])


@primitive(toolbox=TOOLBOX, ends_search=True)
def answer(ctx: AgentContext, letter: str) -> str:
    """Give the final answer to a multiple-choice question (one letter); this ends the task."""
    ctx.agent.episode.give_answer(str(letter))
    return str(letter)
