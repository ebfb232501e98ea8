"""The navigator's settings: maps, point-goal controller and exploration (part of the `agent` config group)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tango.mapping.config import MapConfig


@dataclass
class NavigationConfig:
    """Point-goal controller choice and its settings; distances in metres, angles in degrees.

    `pointnav_checkpoint` (controller "pointnav") defaults to the small policy trained by
    `python -m tango.navigation.train` and shipped in checkpoints/ (a relative path is looked up from the working
    directory, then the project root); habitat-baselines' and VLFM's ResNet-18 checkpoints load as well.
    `pointnav_device` is auto|cpu|cuda|cuda:N (tango.devices; the small policy is fastest on the CPU at one
    frame per step). `point_goal_tolerance` is where task=pointnav stops (under habitat-lab's 0.2 m success radius).
    After `recovery_after_collisions` forward steps that did not move the agent (both controllers), or
    `recovery_after_oscillations` alternating left/right turns of the learned policy, the controller turns
    2-5 times one random way and steps forward before handing control back; 0 disables either."""

    controller: str = "fmm"
    forward_step: float = 0.25
    turn_angle: float = 30.0
    point_goal_tolerance: float = 0.15
    lookahead: float = 0.75
    stuck_displacement: float = 0.05
    recovery_after_collisions: int = 3
    recovery_after_oscillations: int = 6
    pointnav_checkpoint: str = "checkpoints/pointnav_small.pth"
    pointnav_device: str = "cpu"


FRONTIER_POLICIES = ("value", "random", "nearest")


@dataclass
class ExploreConfig:
    """Initial scan and frontier selection with hysteresis; `frontier_policy` "value" follows the value map (VLFM),
    "random" is the baseline that heads for a random frontier until it is reached or given up, "nearest" the
    classic frontier explorer (Yamauchi's: always the closest frontier, no semantics)."""

    scan_turns: int = 12
    frontier_policy: str = "value"
    seed: int = 0
    frontier_switch_margin: float = 0.05
    frontier_switch_distance: float = 1.0
    frontier_reached_distance: float = 0.5
    frontier_patience: int = 20
    max_steps_per_frontier: int = 150
    frontier_progress: float = 0.1
    closer_look_m: float = 2.5
    """When no frontier is left, explore once more what was seen only from farther than this (metres; 0: never):
    the explored area is remade from every frame so far cut to this range (ObstacleMap.explore_closer). Once
    per search: `Navigator.restart_exploration` allows it again."""

    def __post_init__(self) -> None:
        if self.closer_look_m < 0:
            raise ValueError("agent.explore.closer_look_m must be >= 0 (0 turns the closer look off)")
        if self.frontier_policy not in FRONTIER_POLICIES:
            raise ValueError(f"agent.explore.frontier_policy must be one of {FRONTIER_POLICIES}")


@dataclass
class NavigatorConfig:
    """Everything the navigator needs: map, controller and exploration settings."""

    map: MapConfig = field(default_factory=MapConfig)
    navigation: NavigationConfig = field(default_factory=NavigationConfig)
    explore: ExploreConfig = field(default_factory=ExploreConfig)
