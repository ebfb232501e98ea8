"""Where the learned controller should drive for a navigate_to target: object positions lie inside furniture,
where a point-goal policy (trained on goals it can stand on) pushes and circles; the FMM controller plans to the
edge of the stop disk instead. This picks that edge from the agent's own obstacle map: the reachable cell within
the stop radius of the target nearest the agent, else the reachable cell nearest the target."""

from __future__ import annotations

import numpy as np

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.fmm_planner import disk, reachable_from

WINDOW_MARGIN_PX = 40


def approach_point(omap: ObstacleMap, position: np.ndarray, target: np.ndarray, radius: float) -> np.ndarray:
    """A world point the agent can reach on its map (unknown cells count as free) from which `target` is within
    `radius`, the one nearest the agent; the reachable point nearest `target` when there is none; `target`
    itself when the agent stands outside the map."""
    grid = omap.grid
    start, goal = grid.world_to_pixel(np.stack([position, target]))
    if not grid.in_bounds(start[None])[0]:
        return np.asarray(target, dtype=np.float64)
    goal = np.clip(goal, 0, grid.size - 1)
    r0 = max(0, min(start[0], goal[0]) - WINDOW_MARGIN_PX)
    r1 = min(grid.size, max(start[0], goal[0]) + WINDOW_MARGIN_PX + 1)
    c0 = max(0, min(start[1], goal[1]) - WINDOW_MARGIN_PX)
    c1 = min(grid.size, max(start[1], goal[1]) + WINDOW_MARGIN_PX + 1)
    corner = np.array([r0, c0])
    traversable = omap.navigable[r0:r1, c0:c1] | disk(
        (r1 - r0, c1 - c0), start - corner, omap.inflation_px + 1
    )
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
