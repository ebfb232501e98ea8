"""The egocentric map a map-using PointNav policy sees: turned so the heading points up, the agent's left on
the left, the goal drawn in (on the border when it lies beyond the crop)."""

from __future__ import annotations

import numpy as np
import pytest

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.egocentric_map import MAP_CELLS, MAP_EXTENT_M, egocentric_map, goal_cell

CENTRE = (MAP_CELLS - 1) / 2.0
CELLS_PER_M = MAP_CELLS / MAP_EXTENT_M


def blocked_centroid(crop: np.ndarray) -> tuple[float, float]:
    """(x, y) in cells of the blocked channel's cells."""
    rows, cols = np.nonzero(crop[..., 0] > 0.5)
    return float(cols.mean()), float(rows.mean())


@pytest.mark.parametrize(
    ("yaw", "expected"),
    [
        (0.0, (0.0, -2.0)),  # facing -z: the post 2 m ahead is 2 m above the centre
        (np.pi / 2, (2.0, 0.0)),  # facing -x (turned left): the post is on the right
        (-np.pi / 2, (-2.0, 0.0)),  # facing +x: on the left
        (np.pi, (0.0, 2.0)),  # facing +z: behind, below the centre
    ],
)
def test_the_map_turns_with_the_agent(yaw: float, expected: tuple[float, float]) -> None:
    omap = ObstacleMap()
    omap.mark_obstacles(np.array([[0.0, 0.5, -2.0]]))  # one post at world (x 0, z -2)
    crop = egocentric_map(omap, np.zeros(3), yaw, 3.0, 0.0)
    assert crop.shape == (MAP_CELLS, MAP_CELLS, 3) and crop.dtype == np.float32
    x, y = blocked_centroid(crop)
    assert x == pytest.approx(CENTRE + expected[0] * CELLS_PER_M, abs=1.0)
    assert y == pytest.approx(CENTRE + expected[1] * CELLS_PER_M, abs=1.0)
    assert crop[..., 1].max() == 0.0  # nothing revealed yet: the explored layer is empty


def test_the_goal_is_drawn_where_it_lies_or_on_the_border_toward_it() -> None:
    x, y = goal_cell(1.0, np.pi / 2)  # 1 m to the left
    assert (x, y) == pytest.approx((CENTRE - CELLS_PER_M, CENTRE))
    x, y = goal_cell(40.0, 0.0)  # far ahead: on the top border
    assert (x, y) == pytest.approx((CENTRE, 0.0))
    crop = egocentric_map(ObstacleMap(), np.zeros(3), 0.3, 1.0, -np.pi / 2)  # 1 m to the right
    rows, cols = np.nonzero(crop[..., 2])
    assert cols.mean() == pytest.approx(CENTRE + CELLS_PER_M, abs=0.6)
    assert rows.mean() == pytest.approx(CENTRE, abs=0.6)


def test_unknown_cells_read_free_and_seen_cells_explored() -> None:
    omap = ObstacleMap()
    pose = np.eye(4)
    pose[1, 3] = 0.88
    omap.reveal(pose, 79.0)  # camera at the origin facing -z: the cone ahead is explored
    crop = egocentric_map(omap, np.zeros(3), 0.0, 3.0, 0.0)
    assert crop[: int(CENTRE) - 4, int(CENTRE), 1].min() > 0.5  # straight ahead
    assert crop[int(CENTRE) + 4 :, :, 1].max() == 0.0  # behind the agent
    assert crop[..., 0].max() == 0.0
