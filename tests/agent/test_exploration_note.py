"""What the trace says of an exploration step (tango.agent.habitat_agent._exploration_note): the step that took
the closer look says so, the next one does not."""

from __future__ import annotations

from tango.agent.habitat_agent import _exploration_note
from tango.mapping.config import MapConfig
from tango.navigation.config import ExploreConfig, NavigatorConfig
from tango.navigation.navigator import Navigator
from tests.mapping.synthetic import flat_wall_observation


def test_the_exploration_note_says_when_a_step_took_the_closer_look() -> None:
    config = NavigatorConfig(
        map=MapConfig(size_px=300), explore=ExploreConfig(scan_turns=0, closer_look_m=2.5)
    )
    navigator = Navigator(config)
    navigator.update(flat_wall_observation(0.0, size=128))
    navigator.obstacle_map.explored[:] = True  # everything seen: only the closer look finds frontiers
    navigator.obstacle_map.explored_bounds = (0, 300, 0, 300)
    navigator.obstacle_map.version += 1
    action = navigator.next_action_explore()
    note = _exploration_note(navigator, scanning=False, done=action is None)
    assert note["closer_look"] is True and "frontier" in note
    navigator.next_action_explore()
    assert "closer_look" not in _exploration_note(navigator, scanning=False, done=False)
