"""Settings of the top-down maps (mirrors configs/agent/*.yaml `map:`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MapConfig:
    """Map size and resolution, obstacle height band, depth range and frontier filtering.

    Heights are measured from the floor under the agent (the agent position's y).
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
