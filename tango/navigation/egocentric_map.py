"""The agent's own obstacle map as a map-using PointNav policy sees it: a square crop around the agent, turned
so that its heading points up, with the point goal drawn in.

Channels (each in [0, 1]): 0 blocked (cells the agent's footprint cannot take: obstacles dilated by its
radius, the layer the FMM planner plans on), 1 explored (seen by the depth camera), 2 goal (a disk at the goal,
or at the crop's border in the goal's direction when it lies outside). Unknown cells read as free, as the FMM
planner treats them. Everything comes from the agent's depth, pose and point goal: no ground truth.
"""

from __future__ import annotations

import cv2
import numpy as np

from tango.mapping.obstacle_map import ObstacleMap

MAP_CELLS = 64
MAP_EXTENT_M = 8.0
"""The crop covers MAP_EXTENT_M x MAP_EXTENT_M metres (the agent at its centre) in MAP_CELLS x MAP_CELLS cells."""
MAP_CHANNELS = 3
GOAL_RADIUS_CELLS = 2


def egocentric_rotation(agent_pixel: np.ndarray, yaw: float, crop_px: int) -> np.ndarray:
    """2 x 3 affine from crop pixels (x right, y down; agent at the centre facing up) to map pixels (col, row).

    The map's rows grow toward -z and its columns toward +x (MapGrid); the agent's heading in (row, col) is
    (cos yaw, -sin yaw) and its right-hand side (sin yaw, cos yaw)."""
    c, s = np.cos(yaw), np.sin(yaw)
    centre = (crop_px - 1) / 2.0
    row, col = float(agent_pixel[0]), float(agent_pixel[1])
    # map = agent + up * heading + right * right_hand, with up = centre - y and right = x - centre
    return np.array(
        [
            [c, s, col - centre * c - centre * s],
            [s, -c, row + centre * c - centre * s],
        ],
        dtype=np.float64,
    )


def goal_cell(rho: float, theta: float) -> tuple[float, float]:
    """(x, y) of the goal in crop cells (theta positive to the left), pulled onto the border when outside."""
    half = (MAP_CELLS - 1) / 2.0
    cells_per_m = MAP_CELLS / MAP_EXTENT_M
    up, right = rho * np.cos(theta) * cells_per_m, -rho * np.sin(theta) * cells_per_m
    reach = max(abs(up), abs(right))
    if reach > half:
        up, right = up * half / reach, right * half / reach
    return half + right, half - up


def egocentric_map(
    omap: ObstacleMap, position: np.ndarray, yaw: float, rho: float, theta: float
) -> np.ndarray:
    """(MAP_CELLS, MAP_CELLS, MAP_CHANNELS) float32 crop of the map around the agent, heading up, with the goal
    at distance rho and bearing theta (the agent's frame)."""
    grid = omap.grid
    crop_px = round(MAP_EXTENT_M * grid.pixels_per_meter)
    agent = grid.world_to_pixel(np.asarray(position, np.float64)[None])[0]
    reach = int(np.ceil(crop_px / np.sqrt(2))) + 2  # any rotation of the crop stays within this window
    r0, c0 = max(0, agent[0] - reach), max(0, agent[1] - reach)
    window = (slice(r0, agent[0] + reach + 1), slice(c0, agent[1] + reach + 1))
    layers = np.stack([~omap.navigable[window], omap.explored[window]], axis=-1).view(np.uint8)
    affine = egocentric_rotation(agent - [r0, c0], yaw, crop_px)
    crop = cv2.warpAffine(
        layers,
        affine,
        (crop_px, crop_px),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    small = cv2.resize(crop.astype(np.float32), (MAP_CELLS, MAP_CELLS), interpolation=cv2.INTER_AREA)
    out = np.zeros((MAP_CELLS, MAP_CELLS, MAP_CHANNELS), np.float32)
    out[..., :2] = small
    goal = np.zeros((MAP_CELLS, MAP_CELLS), np.uint8)
    x, y = goal_cell(rho, theta)
    cv2.circle(goal, (round(x), round(y)), GOAL_RADIUS_CELLS, (1,), -1)
    out[..., 2] = goal
    return out
