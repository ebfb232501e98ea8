"""End to end on the embedded simulator: frontier exploration with map.explored_method=vlfm covers a procedural
apartment's navigable area (its own VLFM-rule explored map) within 500 steps."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tango.mapping.config import MapConfig
from tango.navigation.config import NavigatorConfig
from tango.navigation.navigator import Navigator
from tests.navigation.sim_world import SimWorld


def test_vlfm_explored_method_covers_80_percent_of_an_apartment_within_500_steps(tmp_path: Path) -> None:
    world = SimWorld(0, tmp_path)
    try:
        rng = np.random.default_rng(0)
        world.place(world.grid.sample_navigable_point(rng), rng.uniform(-np.pi, np.pi))
        navigator = Navigator(NavigatorConfig(map=MapConfig(explored_method="vlfm")))
        for _ in range(500):
            navigator.update(world.observe())
            action = navigator.next_action_explore()
            if action is None:
                break
            world.step(action)
        explored = navigator.obstacle_map.explored
        assert world.explored_navigable_fraction(explored, navigator.config.map.pixels_per_meter) >= 0.8
    finally:
        world.close()
