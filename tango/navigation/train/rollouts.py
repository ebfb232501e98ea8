"""Rollouts: N environments stepped together for T steps, kept as (T, N, ...) tensors for the updates.

`masks[t]` is False where observation t starts an episode; `prev_actions[t]` is the action executed before it.
`hidden` is the recurrent state before step 0, so training replays the rollout through the policy.
Every tensor lives on the policy's device (the simulators' numbers cross over once per step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.train.env import EpisodeEnd, Observation, PointGoalEnv

ActionChooser = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
"""(policy logits (N, 4), teacher labels (N,)) -> executed action indices (N,)."""
RewardShaper = Callable[[float, EpisodeEnd | None], float]
"""(decrease of the geodesic distance, the episode's outcome when it just ended) -> reward."""


@dataclass
class Rollout:
    """T steps of N environments."""

    depth: torch.Tensor
    goal: torch.Tensor
    prev_actions: torch.Tensor
    masks: torch.Tensor
    hidden: torch.Tensor
    labels: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor
    dones: torch.Tensor
    next_value: torch.Tensor
    ended: list[EpisodeEnd] = field(default_factory=list)
    maps: torch.Tensor | None = None
    """(T, N, M, M, C) egocentric maps for a map-using policy, else None."""


class EnvBatch:
    """Environments stepped in turn, with the policy's recurrent state and previous actions between rollouts."""

    def __init__(self, envs: list[PointGoalEnv], policy: RecurrentPointNavPolicy) -> None:
        self.envs = envs
        self.device = policy_device(policy)
        self.observations = [env.reset() for env in envs]
        self.hidden = policy.initial_state(len(envs)).to(self.device)
        self.prev_actions = torch.zeros(len(envs), 1, dtype=torch.long, device=self.device)
        self.masks = torch.zeros(len(envs), 1, dtype=torch.bool, device=self.device)

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def inputs(self) -> PolicyInputs:
        """The current observations as tensors on the policy's device."""
        return observation_tensors(self.observations, self.device)

    def collect(
        self,
        policy: RecurrentPointNavPolicy,
        steps: int,
        choose: ActionChooser,
        rewards: RewardShaper,
    ) -> Rollout:
        """Run `steps` steps, executing what `choose` picks; every step keeps the policy's log-probability of
        the executed action and its value (PPO) and the teacher's label (imitation)."""
        n = len(self.envs)
        hidden0 = self.hidden.clone()
        frames: list[torch.Tensor] = []
        maps: list[torch.Tensor] = []
        goals, prevs, masks, labels, actions, log_probs, values, reward_rows, dones = ([] for _ in range(9))
        ended: list[EpisodeEnd] = []
        for _ in range(steps):
            depth, goal, label, crop = self.inputs()
            with torch.no_grad():
                logits, value, self.hidden = policy.step(
                    depth, goal, self.hidden, self.prev_actions, self.masks, crop
                )
            action = choose(logits, label)
            log_prob = torch.distributions.Categorical(logits=logits).log_prob(action)
            frames.append(depth)
            if crop is not None:
                maps.append(crop)
            goals.append(goal)
            prevs.append(self.prev_actions.clone())
            masks.append(self.masks.clone())
            labels.append(label)
            actions.append(action)
            log_probs.append(log_prob)
            values.append(value.squeeze(-1))
            step_rewards, done = np.zeros(n, np.float32), np.zeros(n, bool)
            executed = action.tolist()
            for i, env in enumerate(self.envs):
                transition = env.step(int(executed[i]))
                self.observations[i] = transition.observation
                step_rewards[i] = rewards(transition.reward, transition.ended)
                done[i] = transition.done
                if transition.ended is not None:
                    ended.append(transition.ended)
            reward_rows.append(torch.from_numpy(step_rewards).to(self.device))
            dones.append(torch.from_numpy(done).to(self.device))
            self.prev_actions = action.view(n, 1)
            self.masks = ~dones[-1].view(n, 1)
        depth, goal, _, crop = self.inputs()
        with torch.no_grad():
            _, next_value, _ = policy.step(depth, goal, self.hidden, self.prev_actions, self.masks, crop)
        return Rollout(
            depth=torch.stack(frames),
            goal=torch.stack(goals),
            prev_actions=torch.stack(prevs),
            masks=torch.stack(masks),
            hidden=hidden0,
            labels=torch.stack(labels),
            actions=torch.stack(actions),
            log_probs=torch.stack(log_probs),
            values=torch.stack(values),
            rewards=torch.stack(reward_rows),
            dones=torch.stack(dones),
            next_value=next_value.squeeze(-1),
            ended=ended,
            maps=torch.stack(maps) if maps else None,
        )


PolicyInputs = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]
"""Depth (N, S, S, 1), goal (N, 2), teacher labels (N,) and egocentric maps (N, M, M, C) or None."""


def observation_tensors(observations: list[Observation], device: torch.device | None = None) -> PolicyInputs:
    """Stack observations into the policy's input tensors and the labels, on `device` (default the CPU)."""
    where = device or torch.device("cpu")
    depth = torch.from_numpy(np.stack([o.depth for o in observations])).to(where)
    goal = torch.from_numpy(np.stack([o.goal for o in observations])).to(where)
    labels = torch.tensor([o.teacher for o in observations], dtype=torch.long, device=where)
    crops = [o.map for o in observations]
    maps = None if any(c is None for c in crops) else torch.from_numpy(np.stack(crops)).to(where)  # type: ignore[arg-type]
    return depth, goal, labels, maps


def policy_device(policy: RecurrentPointNavPolicy) -> torch.device:
    """The device holding the policy's parameters."""
    return next(policy.parameters()).device
