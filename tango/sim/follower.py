"""Oracle shortest-path follower: discrete actions that drive TangoSim along the geodesic to known goals.

It reads the episode's goal positions (ground truth), so it is an oracle for tests, benchmarks and baselines,
never part of the agent. Each step it looks ahead along the distance field's steepest descent, aims at the
furthest waypoint in straight view, and picks the turn or forward move that follows it without colliding.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tango.sim.habitat_sim import TangoSim
from tango.types.poses import forward_vector

_LOOKAHEAD_CELLS = 60
_LOOKAHEAD_STRIDE = 5


class OracleGeodesicFollower:
    """Next action towards the nearest goal; `stop` once within stop_distance (geodesic) of one."""

    def __init__(self, sim: TangoSim, goals: Sequence[Sequence[float]], stop_distance: float) -> None:
        self._sim = sim
        self._goals = [np.asarray(goal, dtype=np.float64) for goal in goals]
        self.stop_distance = stop_distance

    def distance(self, position: np.ndarray | None = None) -> float:
        """Geodesic distance from the agent (or a position) to the nearest goal."""
        point = self._sim.get_agent_state().position if position is None else position
        return self._sim.navgrid.geodesic_distance(np.asarray(point, np.float64), self._goals)

    def next_action(self) -> str:
        """One of stop, move_forward, turn_left, turn_right."""
        position = np.asarray(self._sim.get_agent_state().position, dtype=np.float64)
        here = self.distance(position)
        if here <= self.stop_distance or not np.isfinite(here):
            return "stop"
        desired = self._desired_heading(position)
        yaw, turn = self._sim.agent_yaw, self._sim.turn_angle
        headings = [_wrap(yaw + k * turn) for k in range(-6, 7)]
        headings.sort(key=lambda h: abs(_wrap(h - desired)))
        for heading in headings:
            if self._forward_helps(position, heading, here):
                delta = _wrap(heading - yaw)
                if abs(delta) < 1e-6:
                    return "move_forward"
                return "turn_left" if delta > 0 else "turn_right"
        return "turn_left" if _wrap(desired - yaw) > 0 else "turn_right"

    def _desired_heading(self, position: np.ndarray) -> float:
        grid = self._sim.navgrid
        cells = grid.descent(position, self._goals, max_cells=_LOOKAHEAD_CELLS) or []
        target = cells[0] if cells else position
        for candidate in reversed(cells[::_LOOKAHEAD_STRIDE] + cells[-1:]):
            if grid.segment_navigable(position, candidate):
                target = candidate
                break
        delta = target - position
        return float(np.arctan2(-delta[0], -delta[2]))

    def _forward_helps(self, position: np.ndarray, heading: float, here: float) -> bool:
        target = position + forward_vector(heading) * self._sim.forward_step
        end, collided = self._sim.try_move(position, target, self._sim.allow_sliding)
        return not collided and self.distance(end) < here - 0.05


def _wrap(angle: float) -> float:
    return float((angle + np.pi) % (2 * np.pi) - np.pi)
