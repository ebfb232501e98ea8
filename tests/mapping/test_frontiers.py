"""Frontier midpoints on a hand-drawn layout: a room with a door and a small closet; and the labelling of the
frontier cells' box only."""

from __future__ import annotations

import cv2
import numpy as np

from tango.mapping.frontiers import _component_midpoints, detect_frontiers
from tango.mapping.kernels import label_midpoints


def room_with_door_and_closet() -> tuple[np.ndarray, np.ndarray]:
    navigable = np.zeros((60, 100), bool)
    navigable[10:30, 10:50] = True  # the room, explored
    navigable[18:23, 50] = True  # a door, 5 cells wide, in the right wall
    navigable[5:50, 51:90] = True  # unexplored space beyond the door
    navigable[9, 20:23] = True  # a 3-cell gap in the top wall
    navigable[5:9, 20:24] = True  # ... into a 16-cell closet
    explored = np.zeros_like(navigable)
    explored[10:30, 10:50] = True
    return navigable, explored


def test_door_is_one_frontier_with_its_midpoint() -> None:
    navigable, explored = room_with_door_and_closet()
    frontiers = detect_frontiers(navigable, explored, min_frontier_px=3, min_unexplored_px=30)
    np.testing.assert_array_equal(frontiers, [[20.0, 49.0]])


def test_small_closet_counts_as_frontier_only_below_the_area_threshold() -> None:
    navigable, explored = room_with_door_and_closet()
    frontiers = detect_frontiers(navigable, explored, min_frontier_px=3, min_unexplored_px=10)
    assert sorted(map(tuple, frontiers.tolist())) == [(10.0, 21.0), (20.0, 49.0)]


def test_short_frontiers_are_filtered_by_minimum_size() -> None:
    navigable, explored = room_with_door_and_closet()
    assert len(detect_frontiers(navigable, explored, min_frontier_px=6, min_unexplored_px=10)) == 0


def test_nothing_explored_means_no_frontiers() -> None:
    navigable, _ = room_with_door_and_closet()
    assert detect_frontiers(navigable, np.zeros_like(navigable), 1, 1).shape == (0, 2)


def test_component_midpoints_label_only_the_box_yet_keep_the_whole_masks_order() -> None:
    """Masks whose cells start at odd rows and columns (where labelling a crop at the box itself would number
    the components differently): the midpoints of labelling the whole mask, in the same order."""
    rng = np.random.default_rng(3)
    for trial in range(300):
        height, width = int(rng.integers(3, 90)), int(rng.integers(3, 90))
        mask = rng.random((height, width)) < rng.uniform(0.02, 0.5)
        mask[: int(rng.integers(0, height // 2 + 1))] = False
        mask[:, : int(rng.integers(0, width // 2 + 1))] = False
        count, labels = cv2.connectedComponents(mask.view(np.uint8), connectivity=8)
        expected = label_midpoints(labels, count, 2, 0, 0) if count > 1 else np.zeros((0, 2))
        found = _component_midpoints(mask, 2)
        assert found.shape == expected.shape and found.tobytes() == expected.tobytes(), trial
