"""Settings of the top-down maps: the `agent.map` section of the agent schema (tango.agent.config)."""

from __future__ import annotations

from dataclasses import dataclass

EXPLORED_METHODS = ("raycast", "vlfm")


@dataclass
class MapConfig:
    """Map size and resolution, obstacle height band, depth range and frontier filtering.

    Heights are measured from the floor under the agent (the agent position's y). `explored_method` picks how
    the explored area and frontiers are computed: "raycast" (field-of-view rays, round agent footprint) or
    "vlfm" (VLFM's fog of war and contour frontiers, with its square footprint and projection; see ObstacleMap).
    `min_frontier_size` applies to "raycast" only: "vlfm" keeps VLFM's rule (runs of at least two contour cells);
    `min_unexplored_area` applies to both.
    """

    size_px: int = 1000
    pixels_per_meter: int = 20
    min_obstacle_height: float = 0.15
    max_obstacle_height: float = 0.88
    agent_radius: float = 0.18
    min_depth: float = 0.5
    max_depth: float = 5.0
    min_frontier_size: float = 0.5
    min_unexplored_area: float = 0.5
    frontier_value_radius: float = 0.5
    explored_method: str = "raycast"

    def __post_init__(self) -> None:
        if self.explored_method not in EXPLORED_METHODS:
            raise ValueError(
                f"map.explored_method: {self.explored_method!r} is not one of {', '.join(EXPLORED_METHODS)}"
            )
