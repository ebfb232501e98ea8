"""Where the learned controller should drive for a navigate_to target: object positions lie inside furniture,
where a point-goal policy (trained on goals it can stand on) pushes and circles; the FMM controller plans to the
edge of the stop disk instead. This picks that edge from the agent's own obstacle map: the reachable cell within
the stop radius of the target nearest the agent, else the reachable cell nearest the target, in the window
the FMM planner would plan in (`plan_window`)."""

from __future__ import annotations

import numpy as np

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.fmm_controller import plan_window
from tango.navigation.fmm_planner import reachable_from


def approach_point(omap: ObstacleMap, position: np.ndarray, target: np.ndarray, radius: float) -> np.ndarray:
    """A world point the agent can reach on its map (unknown cells count as free) from which `target` is within
    `radius`, the one nearest the agent; the reachable point nearest `target` when there is none; `target`
    itself when the agent stands outside the map."""
    grid = omap.grid
    start, goal = grid.world_to_pixel(np.stack([position, target]))
    if not grid.in_bounds(start[None])[0]:
        return np.asarray(target, dtype=np.float64)
    goal = np.clip(goal, 0, grid.size - 1)
    corner, traversable = plan_window(omap, start, goal)
    cells = np.argwhere(reachable_from(traversable, start - corner))
    if len(cells) == 0:
        return np.asarray(target, dtype=np.float64)
    to_goal = np.hypot(*(cells - (goal - corner)).T)
    within = to_goal <= radius * grid.pixels_per_meter
    if within.any():
        chosen = cells[within][np.argmin(np.hypot(*(cells[within] - (start - corner)).T))]
    else:
        chosen = cells[np.argmin(to_goal)]
    return grid.pixel_to_world((chosen + corner)[None].astype(np.float64), float(position[1]))[0]
