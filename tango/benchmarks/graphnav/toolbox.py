"""The GraphNav toolbox: primitives a program uses to recall the exploration, localise, plan and move.

`ctx.agent` is a `MazeAgentBackend`. Places are strings naming recognised landmarks ("L17"), or "start" for
the place where the exploration began.
"""

from __future__ import annotations

from tango.primitives.context import AgentContext
from tango.primitives.registry import define_toolbox, primitive

TOOLBOX = "graphnav"

define_toolbox(
    TOOLBOX, description="Topological navigation in GraphNav mazes over a cognitive graph of landmarks."
)


@primitive(toolbox=TOOLBOX)
def build_cognitive_graph(ctx: AgentContext) -> int:
    """Recall the exploration views and build the cognitive graph of landmarks; returns the number of places."""
    return int(ctx.agent.build_graph())


@primitive(toolbox=TOOLBOX)
def localize(ctx: AgentContext) -> str:
    """The place you are at now, found by matching the current view to the cognitive graph ("" if unknown)."""
    return ctx.agent.localize() or ""


@primitive(toolbox=TOOLBOX)
def goal_place(ctx: AgentContext) -> str:
    """The place whose landmark the destination image shows."""
    return str(ctx.agent.goal_place())


@primitive(toolbox=TOOLBOX)
def recall_route(ctx: AgentContext, start: str, goal: str) -> list:
    """The route between two places as it was explored (reversed when the goal was explored first)."""
    return ctx.agent.graph.recalled_route(start, goal) or []


@primitive(toolbox=TOOLBOX)
def plan_route(ctx: AgentContext, start: str, goal: str) -> list:
    """A shortest route of places from start (where you are now) to goal; it may use seen, unwalked corridors."""
    moves = ctx.agent.graph.plan(start, ctx.agent.heading, goal) if start == ctx.agent.place else None
    return [start] + [place for _, place in moves] if moves else []


@primitive(toolbox=TOOLBOX)
def follow(ctx: AgentContext, route: list) -> bool:
    """Walk along a route of places; True once the goal is reached, False if a move is impossible."""
    return bool(ctx.agent.follow([str(place) for place in route]))


@primitive(toolbox=TOOLBOX)
def navigate_to(ctx: AgentContext, place: str) -> bool:
    """Go to a place, replanning on the cognitive graph after every move; True when the goal is reached."""
    return bool(ctx.agent.navigate_to(place))


@primitive(toolbox=TOOLBOX)
def at_goal(ctx: AgentContext) -> bool:
    """True when the trip has reached its goal."""
    return bool(ctx.agent.env.state.success)
