"""Learned point-goal controller: a PointNav policy on depth and the goal in polar coordinates."""

from __future__ import annotations

import cv2
import numpy as np
import torch

from tango.devices import resolve_device
from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import MOVE_FORWARD, POINTNAV_ACTIONS, STOP, TURN_LEFT, TURN_RIGHT
from tango.navigation.config import NavigationConfig
from tango.navigation.egocentric_map import egocentric_map
from tango.navigation.fmm_controller import heading_to, mark_blocked_step, planar_distance, wrap_angle
from tango.navigation.pointnav_checkpoint import load_pointnav_policy
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.recovery import CollisionRecovery


def policy_depth(depth: np.ndarray, min_depth: float, max_depth: float, size: int) -> np.ndarray:
    """Depth in metres (H, W) as the policies take it: missing values read as far, normalised to [0, 1] over
    min..max depth, area-resized to size x size (float32)."""
    filled = np.where(depth <= 0, max_depth, depth)
    normalised = np.clip((filled - min_depth) / (max_depth - min_depth), 0.0, 1.0).astype(np.float32)
    if normalised.shape == (size, size):
        return normalised
    return np.asarray(cv2.resize(normalised, (size, size), interpolation=cv2.INTER_AREA), dtype=np.float32)


def polar_goal(position: np.ndarray, yaw: float, goal: np.ndarray) -> tuple[float, float]:
    """(rho, theta) of goal in the agent's frame: floor-plane distance and bearing, positive to the left
    (habitat's pointgoal_with_gps_compass)."""
    return planar_distance(position, goal), wrap_angle(heading_to(position, goal) - yaw)


class PointNavController:
    """Feeds depth (normalised over the depth range, resized to the policy's input size) and (rho, theta) to
    the policy, keeping its recurrent state and previous action between calls. A map-using policy also gets
    the egocentric crop of the agent's obstacle map, where the controller marks forward steps that did not
    move the agent as collisions (as the FMM controller and the training environment do). The stop decision is
    the controller's (the goal within the stop radius), and so is recovery (tango.navigation.recovery): after
    repeated blocked forward steps or a left/right turn loop it turns away before the policy drives again."""

    def __init__(
        self,
        config: NavigationConfig,
        min_depth: float,
        max_depth: float,
        policy: RecurrentPointNavPolicy | None = None,
    ) -> None:
        self.config = config
        self.min_depth, self.max_depth = min_depth, max_depth
        device = resolve_device(config.pointnav_device, "agent.navigation.pointnav_device")
        self.device = torch.device(device)
        self.policy = policy or load_pointnav_policy(config.pointnav_checkpoint, device)
        self.recovery = CollisionRecovery(
            config.recovery_after_collisions, np.random.default_rng(0), config.recovery_after_oscillations
        )
        self.reset()

    def reset(self) -> None:
        """Zero the recurrent state (call at each new goal)."""
        self._hidden = self.policy.initial_state().to(self.device)
        self._prev_action = torch.zeros(1, 1, dtype=torch.long, device=self.device)
        self._started = False
        self._forward_from: np.ndarray | None = None
        self.recovery.reset()

    def act(
        self,
        depth: np.ndarray,
        position: np.ndarray,
        yaw: float,
        goal: np.ndarray,
        stop_radius: float,
        omap: ObstacleMap | None = None,
    ) -> str:
        """Next action; STOP once within stop_radius of goal in the floor plane, and only then (outside it the
        policy's best action other than stop). `omap` (the agent's obstacle map, updated with this frame) is required by a
        map-using policy."""
        position = np.asarray(position, np.float64)
        rho, theta = polar_goal(position, yaw, goal)
        if rho <= stop_radius:
            return STOP
        size = self.policy.depth_size
        frame = policy_depth(depth, self.min_depth, self.max_depth, size)
        depth_t = torch.from_numpy(frame).to(self.device)[None, :, :, None]
        goal_t = torch.tensor([[rho, theta]], dtype=torch.float32, device=self.device)
        masks = torch.tensor([[self._started]], dtype=torch.bool, device=self.device)
        maps = None
        if self._forward_from is not None:
            if planar_distance(position, self._forward_from) >= self.config.stuck_displacement:
                self.recovery.moved()
            else:
                self.recovery.blocked(position)
                if omap is not None:
                    mark_blocked_step(omap, position, yaw)
        if self.policy.uses_map:
            if omap is None:
                raise ValueError(f"the {self.policy.architecture} PointNav policy needs the obstacle map")
            crop = egocentric_map(omap, position, yaw, rho, theta)
            maps = torch.from_numpy(crop).to(self.device)[None]
        with torch.no_grad():
            logits, _, self._hidden = self.policy.step(
                depth_t, goal_t, self._hidden, self._prev_action, masks, maps
            )
        logits[:, POINTNAV_ACTIONS.index(STOP)] = -torch.inf
        action = logits.argmax(-1, keepdim=True)
        self._started = True
        name = POINTNAV_ACTIONS[int(action.item())]
        recovery = self.recovery.next_action()
        if recovery is not None:
            name = recovery
            action = torch.full_like(action, POINTNAV_ACTIONS.index(name))
        elif name in (TURN_LEFT, TURN_RIGHT):
            self.recovery.turned(name, position)
        self._prev_action = action
        self._forward_from = position.copy() if name == MOVE_FORWARD else None
        return name
