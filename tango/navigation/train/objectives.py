"""The two training objectives over rollouts: DAgger imitation of the follower, and PPO (DD-PPO when the
gradients are averaged over processes). Each says which actions to execute, how steps are rewarded and how
one rollout updates the policy."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F

from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.train.config import ImitationSettings, PpoSettings
from tango.navigation.train.env import EpisodeEnd
from tango.navigation.train.rollouts import ActionChooser, Rollout

GradientStep = Callable[[torch.Tensor], None]
"""Backpropagates a loss, averages gradients over processes, clips them and steps the optimiser."""


class Imitation:
    """DAgger: the follower labels every step; the executed action is its label with probability beta, else
    the policy's greedy action (the policy drives, the follower relabels)."""

    def __init__(self, settings: ImitationSettings, generator: torch.Generator) -> None:
        self.settings = settings
        self.generator = generator
        self.beta = settings.beta_start
        self.replay: deque[Rollout] = deque(maxlen=max(1, settings.replay_rollouts))

    def schedule(self, progress: float) -> None:
        """Set beta for a point of training (progress in [0, 1])."""
        s = self.settings
        fraction = min(1.0, progress / s.beta_decay_fraction) if s.beta_decay_fraction > 0 else 1.0
        self.beta = s.beta_start + (s.beta_end - s.beta_start) * fraction

    def chooser(self) -> ActionChooser:
        def choose(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
            # drawn on the CPU generator on every device, so a seed picks the same actions on CPU and GPU
            teacher = (torch.rand(labels.shape, generator=self.generator) < self.beta).to(labels.device)
            return torch.where(teacher, labels, logits.argmax(-1))

        return choose

    @staticmethod
    def reward(progress: float, ended: EpisodeEnd | None) -> float:
        return progress

    def weights(self, rollout: Rollout) -> torch.Tensor:
        """1 per step, `inflection_weight` where the label differs from the previous step's in the episode."""
        labels = rollout.labels
        changed = torch.ones_like(labels, dtype=torch.bool)
        changed[1:] = (labels[1:] != labels[:-1]) | ~rollout.masks[1:, :, 0]
        return torch.where(changed, self.settings.inflection_weight, 1.0)

    def update(
        self, policy: RecurrentPointNavPolicy, rollout: Rollout, step: GradientStep
    ) -> dict[str, float]:
        """Weighted cross-entropy against the labels: `epochs` passes over the rollout and the replayed ones,
        each in `minibatches` groups of environments (whole sequences, replayed from their stored recurrent
        state). Loss and agreement are reported on the new rollout."""
        s = self.settings
        replayed = []
        if s.replay_rollouts > 0 and self.replay:
            picks = torch.randint(len(self.replay), (s.replay_per_update,), generator=self.generator)
            replayed = [self.replay[int(i)] for i in picks]
        if s.replay_rollouts > 0:
            self.replay.append(rollout)
        losses, agreement = [], []
        for _ in range(s.epochs):
            for data in [rollout, *replayed]:
                weights = self.weights(data)
                for index in environment_batches(data, s.minibatches):
                    logits, _ = replay_sequences(policy, data, index)
                    labels, weight = data.labels[:, index], weights[:, index]
                    each = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), reduction="none")
                    loss = (each * weight.flatten()).sum() / weight.sum()
                    step(loss)
                    if data is rollout:
                        losses.append(float(loss.detach()))
                        agreement.append(float((logits.argmax(-1) == labels).float().mean()))
        return {
            "loss": float(np.mean(losses)),
            "teacher_agreement": float(np.mean(agreement)),
            "beta": self.beta,
        }


def replay_sequences(
    policy: RecurrentPointNavPolicy, rollout: Rollout, index: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits and values of the policy over environments `index` of a rollout, replayed from their stored
    recurrent state."""
    return policy.evaluate_sequence(
        rollout.depth[:, index],
        rollout.goal[:, index],
        rollout.hidden[index],
        rollout.prev_actions[:, index],
        rollout.masks[:, index],
        None if rollout.maps is None else rollout.maps[:, index],
    )


def environment_batches(rollout: Rollout, minibatches: int) -> tuple[torch.Tensor, ...]:
    """Environment indices split into (at most) `minibatches` groups."""
    envs = rollout.labels.shape[1]
    return torch.arange(envs, device=rollout.labels.device).chunk(max(1, min(minibatches, envs)))


class Ppo:
    """PPO with GAE on habitat-baselines' PointNav reward; minibatches split the environments so each
    sequence is replayed whole through the recurrent policy."""

    def __init__(self, settings: PpoSettings) -> None:
        self.settings = settings

    @staticmethod
    def chooser() -> ActionChooser:
        def choose(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
            return torch.distributions.Categorical(logits=logits).sample()

        return choose

    def reward(self, progress: float, ended: EpisodeEnd | None) -> float:
        bonus = self.settings.success_reward * ended.success if ended is not None else 0.0
        return progress + self.settings.slack_reward + bonus

    def returns(self, rollout: Rollout) -> tuple[torch.Tensor, torch.Tensor]:
        """(advantages, returns) by generalised advantage estimation; an episode's end cuts the bootstrap."""
        s = self.settings
        steps = rollout.rewards.shape[0]
        advantages = torch.zeros_like(rollout.rewards)
        running = torch.zeros_like(rollout.next_value)
        next_value = rollout.next_value
        for t in reversed(range(steps)):
            alive = (~rollout.dones[t]).float()
            delta = rollout.rewards[t] + s.gamma * next_value * alive - rollout.values[t]
            running = delta + s.gamma * s.gae_lambda * alive * running
            advantages[t] = running
            next_value = rollout.values[t]
        return advantages, advantages + rollout.values

    def update(
        self, policy: RecurrentPointNavPolicy, rollout: Rollout, step: GradientStep
    ) -> dict[str, float]:
        s = self.settings
        advantages, returns = self.returns(rollout)
        normalised = (advantages - advantages.mean()) / (advantages.std() + 1e-5)
        envs = rollout.rewards.shape[1]
        stats = {"loss": 0.0, "value_loss": 0.0, "entropy": 0.0}
        for _ in range(s.epochs):
            for index in environment_batches(rollout, s.minibatches):
                logits, values = replay_sequences(policy, rollout, index)
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(rollout.actions[:, index]) - rollout.log_probs[:, index])
                adv = normalised[:, index]
                clipped = torch.clamp(ratio, 1.0 - s.clip, 1.0 + s.clip)
                action_loss = -torch.min(ratio * adv, clipped * adv).mean()
                value_loss = 0.5 * (returns[:, index] - values.squeeze(-1)).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = action_loss + s.value_coef * value_loss - s.entropy_coef * entropy
                step(loss)
                stats = {"loss": float(loss), "value_loss": float(value_loss), "entropy": float(entropy)}
        stats["reward"] = float(rollout.rewards.sum() / max(1, envs))
        return stats
