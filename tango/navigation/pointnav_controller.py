"""Learned point-goal controller: the DD-PPO PointNav policy on depth and the goal in polar coordinates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch

from tango.navigation.actions import POINTNAV_ACTIONS, STOP
from tango.navigation.config import NavigationConfig
from tango.navigation.fmm_controller import heading_to, planar_distance, wrap_angle
from tango.navigation.pointnav_net import DEPTH_SIZE, PointNavPolicy


class CheckpointError(RuntimeError):
    """A PointNav checkpoint that is missing or does not fit the policy architecture."""


def extract_state_dict(checkpoint: Any, path: Path) -> dict[str, torch.Tensor]:
    """The policy weights of a habitat-baselines checkpoint ({"state_dict": ..., "config": ...}) or of a plain
    state dict (VLFM's pointnav_weights.pth); DDP `module.`/`actor_critic.` prefixes are removed."""
    state = checkpoint.get("state_dict", checkpoint) if isinstance(checkpoint, dict) else None
    if not isinstance(state, dict):
        raise CheckpointError(
            f"{path}: expected a state dict or a dict with 'state_dict', got {type(checkpoint)}"
        )
    cleaned = {}
    for key, value in state.items():
        for prefix in ("module.", "actor_critic."):
            key = key.removeprefix(prefix)
        cleaned[key] = value
    return cleaned


def load_pointnav_policy(path: str | Path, device: str = "cpu") -> PointNavPolicy:
    """Build the policy and load a checkpoint into it; raises CheckpointError naming the file and the problem."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: PointNav checkpoint not found (see checkpoints/README.md)")
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    state = extract_state_dict(checkpoint, path)
    policy = PointNavPolicy()
    expected = policy.state_dict()
    missing = sorted(set(expected) - set(state))
    if missing:
        raise CheckpointError(f"{path}: missing {len(missing)} policy weights, e.g. {missing[:3]}")
    wrong = [k for k in expected if tuple(state[k].shape) != tuple(expected[k].shape)]
    if wrong:
        raise CheckpointError(f"{path}: shape mismatch for {wrong[:3]}")
    policy.load_state_dict({k: state[k] for k in expected})
    return policy.to(device).eval()


class PointNavController:
    """Feeds depth (normalised to [0, 1] over the depth range, resized to 224 px) and (rho, theta) to the policy,
    keeping its recurrent state and previous action between calls."""

    def __init__(
        self,
        config: NavigationConfig,
        min_depth: float,
        max_depth: float,
        policy: PointNavPolicy | None = None,
    ) -> None:
        self.config = config
        self.min_depth, self.max_depth = min_depth, max_depth
        self.device = torch.device(config.pointnav_device)
        self.policy = policy or load_pointnav_policy(config.pointnav_checkpoint, config.pointnav_device)
        self.reset()

    def reset(self) -> None:
        """Zero the recurrent state (call at each new goal)."""
        self._hidden = self.policy.initial_state().to(self.device)
        self._prev_action = torch.zeros(1, 1, dtype=torch.long, device=self.device)
        self._started = False

    def act(
        self, depth: np.ndarray, position: np.ndarray, yaw: float, goal: np.ndarray, stop_radius: float
    ) -> str:
        """Next action; STOP once within stop_radius of goal in the floor plane (the policy's own stop is
        passed through as well)."""
        rho = planar_distance(position, goal)
        if rho <= stop_radius:
            return STOP
        theta = wrap_angle(heading_to(position, goal) - yaw)
        normalised = np.clip(
            (np.where(depth <= 0, self.max_depth, depth) - self.min_depth)
            / (self.max_depth - self.min_depth),
            0.0,
            1.0,
        ).astype(np.float32)
        resized = cv2.resize(normalised, (DEPTH_SIZE, DEPTH_SIZE), interpolation=cv2.INTER_AREA)
        depth_t = torch.from_numpy(resized).to(self.device)[None, :, :, None]
        goal_t = torch.tensor([[rho, theta]], dtype=torch.float32, device=self.device)
        masks = torch.tensor([[self._started]], dtype=torch.bool, device=self.device)
        action, self._hidden = self.policy.act(depth_t, goal_t, self._hidden, self._prev_action, masks)
        self._prev_action = action
        self._started = True
        return POINTNAV_ACTIONS[int(action.item())]
