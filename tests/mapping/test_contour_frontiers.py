"""VLFM-rule frontiers on hand-drawn layouts: a walled room with a door and a closet, an explored square."""

from __future__ import annotations

import numpy as np

from tango.mapping.contour_frontiers import detect_contour_frontiers
from tango.mapping.frontiers import explored_bounds


def walled_room() -> tuple[np.ndarray, np.ndarray]:
    """Navigable: a room (rows 10-29, cols 5-24, explored), a 5-row door east (rows 18-22, cols 25-27) into
    open space (cols 28+), and a gap north (rows 6-9, cols 14-16) into a closet (rows 2-5, cols 12-18)."""
    navigable = np.zeros((50, 60), bool)
    navigable[10:30, 5:25] = True
    navigable[18:23, 25:28] = True
    navigable[:, 28:] = True
    navigable[6:10, 14:17] = True
    navigable[2:6, 12:19] = True
    explored = np.zeros_like(navigable)
    explored[10:30, 5:25] = True
    return navigable, explored


def frontiers_of(navigable: np.ndarray, explored: np.ndarray, min_area: float) -> list[tuple[float, float]]:
    found = detect_contour_frontiers(navigable, explored, min_area, explored_bounds(explored))
    return sorted(map(tuple, found.tolist()))


def test_door_and_closet_are_frontiers_at_the_middle_of_their_open_runs() -> None:
    # the explored room grows 2 cells (5x5 dilation) into the door (cols 25-26) and the gap (rows 8-9); the
    # contour cells next to unexplored cells are col 26 rows 18-22 and row 8 cols 14-16: midpoints (20, 26), (8, 15)
    navigable, explored = walled_room()
    assert frontiers_of(navigable, explored, min_area=10) == [(8.0, 15.0), (20.0, 26.0)]


def test_closet_is_dropped_by_its_outline_area_not_its_cell_count() -> None:
    # the closet pocket (rows 2-7) has 34 cells but its outline through cell centres encloses 4*7 -> 3*6 = 18
    # plus the 3x2-cell stem -> 2*2 = 4, i.e. 22: a threshold of 25 drops it, 20 keeps it
    navigable, explored = walled_room()
    assert frontiers_of(navigable, explored, min_area=25) == [(20.0, 26.0)]
    assert frontiers_of(navigable, explored, min_area=20) == [(8.0, 15.0), (20.0, 26.0)]


def test_explored_square_in_open_space_is_one_closed_frontier() -> None:
    # explored rows/cols 10-19 dilate to 8-21; the contour walk (down, right, up, left from the cell after the
    # top-left corner) is 51 unit steps long, so its middle is 25.5 steps on: 12 down, 13 right, 0.5 up
    navigable = np.ones((40, 40), bool)
    explored = np.zeros_like(navigable)
    explored[10:20, 10:20] = True
    assert frontiers_of(navigable, explored, min_area=0) == [(20.5, 21.0)]


def test_fully_enclosed_explored_room_has_no_frontier() -> None:
    navigable, explored = walled_room()
    navigable[:, 25:] = False
    navigable[:10] = False
    assert frontiers_of(navigable, explored, min_area=10) == []


def test_nothing_explored_means_no_frontiers() -> None:
    navigable, _ = walled_room()
    assert detect_contour_frontiers(navigable, np.zeros_like(navigable), 10, None).shape == (0, 2)
