"""Frontier choice: the value policy follows the value map, the random baseline ignores it but keeps its pick,
the nearest-frontier baseline takes the closest one whatever the map values."""

from __future__ import annotations

import numpy as np
import pytest

from tango.mapping.config import MapConfig
from tango.mapping.geometry import MapGrid
from tango.mapping.value_map import ValueMap
from tango.navigation.config import ExploreConfig
from tango.navigation.explorer import FrontierSelector

FRONTIERS = np.array([[float(x), 0.0, -3.0] for x in range(-4, 5, 2)])


def _value_map_preferring(point: np.ndarray) -> ValueMap:
    config = MapConfig(size_px=200, pixels_per_meter=10)
    values = ValueMap(1, config)
    pixel = MapGrid(config.size_px, config.pixels_per_meter).world_to_pixel(point[None])[0]
    values.values[pixel[0] - 3 : pixel[0] + 4, pixel[1] - 3 : pixel[1] + 4, 0] = 1.0
    values.confidence[pixel[0] - 3 : pixel[0] + 4, pixel[1] - 3 : pixel[1] + 4] = 1.0
    return values


def test_value_policy_heads_for_the_valued_frontier() -> None:
    selector = FrontierSelector(ExploreConfig(frontier_policy="value"))
    chosen = selector.choose(FRONTIERS, np.zeros(3), _value_map_preferring(FRONTIERS[4]))
    assert chosen is not None and np.allclose(chosen, FRONTIERS[4])


def test_random_policy_ignores_values_and_keeps_its_target() -> None:
    values = _value_map_preferring(FRONTIERS[4])
    picks = set()
    for seed in range(12):
        selector = FrontierSelector(ExploreConfig(frontier_policy="random", seed=seed))
        first = selector.choose(FRONTIERS, np.zeros(3), values)
        assert first is not None
        for _ in range(5):
            again = selector.choose(FRONTIERS, np.zeros(3), values)
            assert again is not None and np.allclose(again, first)
        picks.add(int(np.argmin(np.abs(FRONTIERS[:, 0] - first[0]))))
    assert len(picks) >= 3


def test_random_policy_is_deterministic_per_seed() -> None:
    first = FrontierSelector(ExploreConfig(frontier_policy="random", seed=5)).choose(
        FRONTIERS, np.zeros(3), None
    )
    second = FrontierSelector(ExploreConfig(frontier_policy="random", seed=5)).choose(
        FRONTIERS, np.zeros(3), None
    )
    assert first is not None and second is not None and np.allclose(first, second)


def test_nearest_policy_takes_the_closest_frontier_whatever_the_values() -> None:
    selector = FrontierSelector(ExploreConfig(frontier_policy="nearest"))
    position = np.array([-3.5, 0.0, -2.0])
    chosen = selector.choose(FRONTIERS, position, _value_map_preferring(FRONTIERS[4]))
    assert chosen is not None and np.allclose(chosen, FRONTIERS[0])
    assert selector.score_kind == "negative distance"


def test_unknown_policy_is_rejected() -> None:
    with pytest.raises(ValueError, match="frontier_policy"):
        ExploreConfig(frontier_policy="greedy")


def test_a_frontier_already_chosen_from_the_same_place_is_not_chosen_again() -> None:
    """VLFM's acyclic rule: an agent turning in place whose best frontier flickers in and out of view swapped
    between two frontiers forever (each swap restarted the stall count); it now takes a third one."""
    selector = FrontierSelector(ExploreConfig(frontier_policy="nearest"))
    here = np.zeros(3)
    near, middle, far = FRONTIERS[2], FRONTIERS[3], FRONTIERS[4]
    assert np.allclose(selector.choose(np.stack([near, far]), here, None), near)
    assert np.allclose(selector.choose(np.stack([middle, far]), here, None), middle)
    again = selector.choose(np.stack([near, far]), here, None)
    assert again is not None and np.allclose(again, far), "swapped back to a frontier chosen here before"
    elsewhere = selector.choose(np.stack([near, far]), np.array([0.5, 0.0, 0.0]), None)
    assert elsewhere is not None and np.allclose(elsewhere, near), (
        "the rule should only bind at the same place"
    )


def test_when_every_frontier_was_chosen_here_the_farthest_is_taken() -> None:
    selector = FrontierSelector(ExploreConfig(frontier_policy="nearest"))
    here = np.zeros(3)
    for frontier in FRONTIERS[2:]:
        selector.give_up()
        assert np.allclose(selector.choose(frontier[None], here, None), frontier)
        selector._blacklist.clear()
    chosen = selector.choose(FRONTIERS[2:], here, None)
    assert chosen is not None and np.allclose(chosen, FRONTIERS[4])
