"""The agent's own maps, path and remembered objects as top-down layers for the video panel and thumbnail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tango.harness.topdown import TopDownLayers
from tango.navigation.navigator import Navigator
from tango.types.goals import Position
from tango.types.observation import Observation


def agent_layers(
    navigator: Navigator,
    obs: Observation,
    path: Sequence[np.ndarray],
    remembered: Sequence[Position],
    goals: Sequence[Any] = (),
) -> TopDownLayers:
    """Layers in the navigator's map pixels; `goals` are drawn only when a caller outside the agent (the
    runner's thumbnail) passes them."""
    omap = navigator.obstacle_map
    grid = omap.grid

    def pixels(points: Sequence[Any]) -> np.ndarray | None:
        return grid.world_to_pixel(np.asarray(points, dtype=np.float64)) if len(points) else None

    value_map = navigator.value_map
    agent = grid.world_to_pixel(obs.agent_position[None])[0]
    return TopDownLayers(
        obstacles=~omap.navigable & omap.explored,
        explored=omap.explored,
        value=value_map.values[..., 0] if value_map.confidence.any() else None,
        frontiers=omap.frontier_pixels(),
        path=pixels(path),
        goals=pixels(goals),
        detections=pixels(remembered),
        agent=(int(agent[0]), int(agent[1])),
        agent_yaw=obs.agent_yaw,
    )
