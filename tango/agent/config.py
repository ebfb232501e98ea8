"""The `agent` config group: the navigator's maps, controller and exploration, and how primitives behave."""

from __future__ import annotations

from dataclasses import dataclass, field

from tango.navigation.config import NavigatorConfig


@dataclass
class AgentSettings:
    """Behaviour of the agent's primitives (`agent.primitives`); distances in metres."""

    reach_distance: float = 0.8
    max_navigate_steps: int = 250
    arrive_tolerance: float = 0.15
    progress_step: float = 0.1
    navigate_patience: int = 40
    """navigate_to: steps without the remaining path shrinking by `progress_step` before the drive gives up."""
    detour_growth: float = 0.5
    """navigate_to: a plan that grows by this much in one step (a wall found across the way) while the agent is
    more than twice the reach from the point restarts the patience count, so a detour longer than
    `navigate_patience` steps is not taken for a stall (tango.agent.progress)."""
    scan_turns: int = 12
    min_detection_score: float = 0.0
    merge_distance: float = 0.4
    keyframe_every: int = 3
    max_keyframes: int = 300
    verify_views: int = 3
    """verify(): views taken at the end of the approach, at most 3 (facing the object, then one turn to each side)."""
    verify_distance: float = 1.5
    """verify(): how close the agent goes before looking again (an object too close is cut by the frame)."""
    verify_radius: float = 1.5
    """verify(): a re-detection of the label within this distance of the candidate confirms it (a bed seen from 1.5 m
    is located at its near end, seen from afar near its middle)."""
    reject_radius: float = 0.5
    """verify(): detections of the label within this distance of a rejected candidate are ignored."""


@dataclass
class AgentConfig(NavigatorConfig):
    """The Habitat agent: the navigator's settings plus its primitives' behaviour."""

    primitives: AgentSettings = field(default_factory=AgentSettings)
