"""The top-down panel of episode videos and thumbnails: the agent's maps, path and remembered objects as layers
(`agent_layers`), drawn from plain map arrays in (row, col) pixels (`render_topdown`).

Drawing depends on no mapping class: callers outside the agent (the runner's thumbnail) pass layers of their
own. The image is cropped to the known area plus a margin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tango.navigation.navigator import Navigator
from tango.types.goals import Position
from tango.types.observation import Observation

UNKNOWN = (60, 60, 60)
EXPLORED = (200, 200, 200)
OBSTACLE = (20, 20, 20)
FRONTIER = (0, 200, 255)
PATH = (40, 90, 255)
AGENT = (230, 30, 30)
GOAL = (30, 180, 60)
DETECTION = (255, 140, 0)


@dataclass
class TopDownLayers:
    """What to draw; all grids HxW of one map, all points (N, 2) (row, col) pixels of that map.

    `value` (HxW, any range) tints explored cells from dark blue (low) to yellow (high); `agent_yaw` is in
    radians with 0 facing -z, which is up (decreasing row) in tango.mapping's layout.
    """

    obstacles: np.ndarray
    explored: np.ndarray
    value: np.ndarray | None = None
    frontiers: np.ndarray | None = None
    path: np.ndarray | None = None
    goals: np.ndarray | None = None
    detections: np.ndarray | None = None
    agent: tuple[int, int] | None = None
    agent_yaw: float = 0.0


def _value_colours(value: np.ndarray) -> np.ndarray:
    """HxW values to HxWx3 colours from dark blue (min) to yellow (max)."""
    low, high = float(np.min(value)), float(np.max(value))
    scaled = (value - low) / (high - low) if high > low else np.zeros_like(value, dtype=np.float64)
    scaled = scaled[..., None]
    return (np.array([30, 30, 120]) * (1 - scaled) + np.array([250, 230, 40]) * scaled).astype(np.uint8)


def _points(points: np.ndarray | None) -> np.ndarray:
    return (
        np.zeros((0, 2), np.int64) if points is None or len(points) == 0 else np.rint(points).astype(np.int64)
    )


def _crop_box(layers: TopDownLayers, margin: int) -> tuple[int, int, int, int]:
    known = layers.explored | layers.obstacles
    rows, cols = np.nonzero(known)
    extra = [p for p in (_points(layers.path), _points(layers.goals)) if len(p)]
    if layers.agent is not None:
        extra.append(np.array([layers.agent]))
    if extra:
        stacked = np.concatenate(extra)
        rows, cols = np.concatenate([rows, stacked[:, 0]]), np.concatenate([cols, stacked[:, 1]])
    height, width = known.shape
    if rows.size == 0:
        return 0, height, 0, width
    return (
        max(int(rows.min()) - margin, 0),
        min(int(rows.max()) + margin + 1, height),
        max(int(cols.min()) - margin, 0),
        min(int(cols.max()) + margin + 1, width),
    )


def render_topdown(layers: TopDownLayers, margin_px: int = 20) -> np.ndarray:
    """An RGB uint8 image of the layers, cropped to the known area (+ margin)."""
    height, width = layers.obstacles.shape
    image = np.empty((height, width, 3), np.uint8)
    image[:] = UNKNOWN
    image[layers.explored] = EXPLORED
    if layers.value is not None:
        tinted = _value_colours(layers.value)
        image[layers.explored] = (0.5 * image[layers.explored] + 0.5 * tinted[layers.explored]).astype(
            np.uint8
        )
    image[layers.obstacles] = OBSTACLE
    path = _points(layers.path)
    if len(path) > 1:
        cv2.polylines(image, [path[:, ::-1].reshape(-1, 1, 2).astype(np.int32)], False, PATH, 1)
    for points, colour, radius in (
        (layers.frontiers, FRONTIER, 2),
        (layers.detections, DETECTION, 3),
        (layers.goals, GOAL, 4),
    ):
        for row, col in _points(points):
            cv2.circle(image, (int(col), int(row)), radius, colour, -1)
    if layers.agent is not None:
        row, col = layers.agent
        tip = (
            round(float(col - 8 * np.sin(layers.agent_yaw))),
            round(float(row - 8 * np.cos(layers.agent_yaw))),
        )
        cv2.circle(image, (int(col), int(row)), 4, AGENT, -1)
        cv2.line(image, (int(col), int(row)), tip, AGENT, 2)
    r0, r1, c0, c1 = _crop_box(layers, margin_px)
    return np.ascontiguousarray(image[r0:r1, c0:c1])


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
