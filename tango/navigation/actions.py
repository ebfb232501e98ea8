"""The discrete actions of the embedded simulator and habitat (names as habitat's action space)."""

from __future__ import annotations

MOVE_FORWARD = "move_forward"
TURN_LEFT = "turn_left"
TURN_RIGHT = "turn_right"
STOP = "stop"

POINTNAV_ACTIONS = (STOP, MOVE_FORWARD, TURN_LEFT, TURN_RIGHT)
"""Index order of habitat-baselines' PointNav policy outputs."""
