"""The agent's navigation facade: maps updated from observations, initial 360-degree scan, frontier
exploration and navigation to 3D points; it also shows perception memories the map grid and frame patches."""

from __future__ import annotations

import logging

import numpy as np

from tango.mapping.fov_patch import FovPatch
from tango.mapping.geometry import MapGrid
from tango.mapping.obstacle_map import ObstacleMap
from tango.mapping.value_map import ValueMap
from tango.navigation.actions import STOP, TURN_LEFT
from tango.navigation.approach import approach_point
from tango.navigation.config import NavigatorConfig
from tango.navigation.explorer import FrontierSelector
from tango.navigation.fmm_controller import FmmController, planar_distance
from tango.navigation.pointnav_controller import PointNavController
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.types.observation import Observation

LOG = logging.getLogger(__name__)
CONTROLLERS = ("fmm", "pointnav")
APPROACH_REFRESH_STEPS = 10
"""Steps between choices of the learned controller's approach point (the map grows as it drives)."""


class Navigator:
    """Call `update(obs, ...)` once per step, then one of `next_action_explore()` / `next_action_to(point)`."""

    def __init__(
        self,
        config: NavigatorConfig | None = None,
        num_prompts: int = 1,
        pointnav_policy: RecurrentPointNavPolicy | None = None,
    ) -> None:
        self.config = config or NavigatorConfig()
        nav = self.config.navigation
        if nav.controller not in CONTROLLERS:
            raise ValueError(
                f"agent.navigation.controller must be one of {CONTROLLERS}, got {nav.controller!r}"
            )
        self.num_prompts = num_prompts
        self.fmm = FmmController(nav)
        self.pointnav: PointNavController | None = None
        if nav.controller == "pointnav":
            mcfg = self.config.map
            self.pointnav = PointNavController(nav, mcfg.min_depth, mcfg.max_depth, pointnav_policy)
        self.frontiers = FrontierSelector(self.config.explore)
        self.reset()

    def reset(self) -> None:
        """Fresh maps, a pending 360-degree scan, no goal (call at each episode start)."""
        self.obstacle_map = ObstacleMap(self.config.map)
        self.value_map = ValueMap(self.num_prompts, self.config.map)
        self._patch: tuple[Observation, FovPatch] | None = None
        self.last_obs: Observation | None = None
        self.scan_remaining = self.config.explore.scan_turns
        self.frontiers.reset()
        self.fmm.reset()
        if self.pointnav is not None:
            self.pointnav.reset()
        self._goal: np.ndarray | None = None
        self._approach: np.ndarray | None = None
        self._approach_age = 0
        self._remaining = float("inf")
        self._closer_look_taken = False
        self.closer_look_now = False
        """Whether the last `next_action_explore` took the closer look (traces note it)."""

    def restart_exploration(self) -> None:
        """A new search in the same episode: scan again and reconsider every frontier (maps stay); the closer
        look is allowed again."""
        self.frontiers.reset()
        self.start_scan()
        self._closer_look_taken = False

    def reset_values(self) -> None:
        """Forget the value map (its prompts changed); obstacles and explored area stay."""
        self.value_map = ValueMap(self.num_prompts, self.config.map)

    def start_scan(self) -> None:
        """Queue a full turn in place (the next explore actions are turn_left)."""
        self.scan_remaining = self.config.explore.scan_turns

    @property
    def grid(self) -> MapGrid:
        """The episode's map grid (shared by every map)."""
        return self.obstacle_map.grid

    def fov_patch(self, obs: Observation) -> FovPatch:
        """The map cells `obs` sees, with their confidence (computed once per frame for every map that uses it)."""
        if self._patch is None or self._patch[0] is not obs:
            self._patch = (obs, self.value_map.project(obs))
        return self._patch[1]

    def update(self, obs: Observation, value_scores: np.ndarray | None = None) -> None:
        """Fuse one observation: obstacles and explored area; per-prompt scores into the value map (optional)."""
        self.last_obs = obs
        self.obstacle_map.update(obs)
        if value_scores is not None:
            self.value_map.fuse(self.fov_patch(obs), value_scores)

    def _observation(self) -> Observation:
        if self.last_obs is None:
            raise RuntimeError("Navigator.update(obs) must be called before asking for an action")
        return self.last_obs

    def next_action_explore(self) -> str | None:
        """Scan first, then head for the chosen frontier; None when no frontier is left (exploration done).
        Before giving up: withdraw collision marks (they can close a doorway), then, once per search, take the
        closer look (`ExploreConfig.closer_look_m`)."""
        obs = self._observation()
        self.closer_look_now = False
        if self.scan_remaining > 0:
            self.scan_remaining -= 1
            return TURN_LEFT
        action = self._frontier_action(obs)
        if action is None and self.obstacle_map.clear_collisions():
            LOG.debug("no reachable frontier: withdrawing collision marks and looking again")
            self.frontiers.reset()
            action = self._frontier_action(obs)
        closer = self.config.explore.closer_look_m
        if action is None and closer > 0 and not self._closer_look_taken:
            LOG.debug("no frontier left: exploring again what was seen only from beyond %.1f m", closer)
            self._closer_look_taken = self.closer_look_now = True
            self.obstacle_map.explore_closer(closer)
            self.frontiers.reset()
            action = self._frontier_action(obs)
        return action

    def _frontier_action(self, obs: Observation) -> str | None:
        """Head for the chosen frontier, giving up on (up to 8) frontiers that are reached, unreachable or
        stalled; None when none is left."""
        cfg = self.config.explore
        position = obs.agent_position
        for _ in range(8):
            target = self.frontiers.choose(
                self.obstacle_map.frontiers(float(position[1])), position, self.value_map
            )
            if target is None:
                return None
            replans = self.fmm.replans
            action = self._fmm_action(obs, target, cfg.frontier_reached_distance)
            if action == STOP or self.fmm.unreachable:
                self.frontiers.give_up()
                continue
            if self.frontiers.stalled(self.fmm.remaining_distance, self.fmm.replans != replans):
                LOG.debug("giving up frontier %s: no progress in %d steps", target, cfg.frontier_patience)
                self.frontiers.give_up()
                continue
            return action
        return None

    def next_action_to(self, point: np.ndarray, stop_distance: float, object_goal: bool = False) -> str:
        """Action toward a 3D point; STOP once within `stop_distance` metres. With `object_goal` (the point is an
        object's, likely inside furniture) the learned controller drives to the reachable edge of the stop disk
        on the agent's map (tango.navigation.approach), re-chosen as the map grows; the FMM controller plans to
        that edge by itself."""
        obs = self._observation()
        goal = np.asarray(point, dtype=float)
        if self._goal is None or planar_distance(goal, self._goal) > 0.05:
            self._goal = goal.copy()
            self._approach, self._approach_age = None, 0
            if self.pointnav is not None:
                self.pointnav.reset()
        if self.pointnav is None:
            action = self._fmm_action(obs, goal, stop_distance)
            self._remaining = self.fmm.remaining_distance
            return action
        position = obs.agent_position
        target, radius = goal, stop_distance
        if object_goal:
            if planar_distance(position, goal) <= stop_distance:
                self._remaining = 0.0
                return STOP
            if self._approach is None or self._approach_age >= APPROACH_REFRESH_STEPS:
                self._approach, self._approach_age = (
                    approach_point(self.obstacle_map, position, goal, stop_distance),
                    0,
                )
            self._approach_age += 1
            target, radius = self._approach, self.config.navigation.point_goal_tolerance
        self._remaining = planar_distance(position, target)
        return self.pointnav.act(obs.depth, position, obs.agent_yaw, target, radius, self.obstacle_map)

    @property
    def remaining_distance(self) -> float:
        """How far the last `next_action_to` goal is: the plan's remaining length with the FMM controller, the
        straight-line distance (what GPS tells) with the learned one; inf before the first call."""
        return self._remaining

    def _fmm_action(self, obs: Observation, goal: np.ndarray, radius: float) -> str:
        return self.fmm.act(obs.agent_position, obs.agent_yaw, goal, self.obstacle_map, radius)
