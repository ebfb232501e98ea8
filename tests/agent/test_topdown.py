"""Top-down panel: each layer lands in its colour at its pixels, and the image is cropped to the known area."""

from __future__ import annotations

import numpy as np

from tango.agent.topdown import (
    AGENT,
    DETECTION,
    EXPLORED,
    FRONTIER,
    GOAL,
    OBSTACLE,
    PATH,
    UNKNOWN,
    TopDownLayers,
    render_topdown,
)


def _layers() -> TopDownLayers:
    obstacles = np.zeros((200, 200), bool)
    explored = np.zeros((200, 200), bool)
    explored[80:120, 80:120] = True
    obstacles[80, 80:120] = True
    return TopDownLayers(obstacles=obstacles, explored=explored)


def test_layers_are_drawn_in_their_colours_and_cropped() -> None:
    layers = _layers()
    layers.frontiers = np.array([[100.0, 119.0]])
    layers.goals = np.array([[90, 90]])
    layers.agent = (110, 100)
    layers.path = np.array([[85, 85], [85, 110]])
    layers.detections = np.array([[95, 112]])
    image = render_topdown(layers, margin_px=5)
    assert image.shape == (40 + 10, 40 + 10, 3)  # known area 40x40 plus the margin
    offset = 80 - 5
    assert tuple(image[80 - offset, 100 - offset]) == OBSTACLE
    assert tuple(image[115 - offset, 85 - offset]) == EXPLORED
    assert tuple(image[0, 0]) == UNKNOWN
    assert tuple(image[100 - offset, 119 - offset]) == FRONTIER
    assert tuple(image[90 - offset, 90 - offset]) == GOAL
    assert tuple(image[110 - offset, 100 - offset]) == AGENT
    assert tuple(image[110 - 6 - offset, 100 - offset]) == AGENT  # heading 0 points up (towards -z)
    assert tuple(image[85 - offset, 95 - offset]) == PATH
    assert tuple(image[95 - offset, 112 - offset]) == DETECTION


def test_value_map_tints_explored_cells_by_value() -> None:
    layers = _layers()
    value = np.zeros((200, 200))
    value[100:120, :] = 1.0
    layers.value = value
    image = render_topdown(layers, margin_px=0).astype(int)
    low, high = image[5, 5], image[30, 5]  # rows 85 and 110 of the map
    assert high[0] > low[0] and high[1] > low[1] and low[2] > high[2]


def test_empty_map_is_returned_whole() -> None:
    layers = TopDownLayers(obstacles=np.zeros((30, 40), bool), explored=np.zeros((30, 40), bool))
    assert render_topdown(layers).shape == (30, 40, 3)
