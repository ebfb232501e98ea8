"""What every PointNav policy shares: one recurrent step for acting, whole rollouts for training.

A policy has three top-level modules, named as in habitat-baselines' checkpoints: `net` (visual, goal and
previous-action embedding, then a recurrent state encoder), `action_distribution` (logits over stop,
move_forward, turn_left, turn_right) and `critic` (state value). Inputs: depth (N, S, S, 1) normalised to
[0, 1], the goal as (rho, theta) in the agent's frame (theta positive to the left), the previous action (N, 1)
and masks (N, 1), False on an episode's first step; a policy with `uses_map` also takes the agent's egocentric
map (N, M, M, C) (tango.navigation.egocentric_map), the others take `maps=None`.
"""

from __future__ import annotations

from typing import ClassVar

import torch
from torch import nn

NUM_ACTIONS = 4


def goal_features(goal: torch.Tensor) -> torch.Tensor:
    """(rho, cos(-theta), sin(-theta)): habitat-baselines' embedding input of pointgoal_with_gps_compass."""
    return torch.stack([goal[:, 0], torch.cos(-goal[:, 1]), torch.sin(-goal[:, 1])], -1)


def previous_action_index(prev_actions: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Index into the previous-action embedding: 0 at an episode's start, else the action + 1."""
    return torch.where(masks.view(-1), prev_actions.view(-1) + 1, torch.zeros_like(prev_actions.view(-1)))


class CategoricalHead(nn.Module):
    """Action logits; the `linear` name matches habitat-baselines' CategoricalNet."""

    def __init__(self, hidden: int, actions: int = NUM_ACTIONS) -> None:
        super().__init__()
        self.linear = nn.Linear(hidden, actions)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)


class CriticHead(nn.Module):
    """State value (PPO's baseline; imitation leaves it untouched)."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


class StateEncoder(nn.Module):
    """One recurrent step: (x (N, F), hidden (N, layers, H), masks (N, 1)) -> (features (N, H), hidden)."""

    num_recurrent_layers: int

    def forward(
        self, x: torch.Tensor, hidden: torch.Tensor, masks: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError


class PolicyNet(nn.Module):
    """The part before the heads, habitat-baselines' PointNavResNetNet layout: `visual_encoder` + `visual_fc` on
    depth, `tgt_embeding` of the goal, `prev_action_embedding`, then the recurrent `state_encoder`."""

    hidden_size: int
    visual_encoder: nn.Module
    visual_fc: nn.Module
    tgt_embeding: nn.Linear
    prev_action_embedding: nn.Embedding
    state_encoder: StateEncoder

    def embed(
        self,
        depth: torch.Tensor,
        goal: torch.Tensor,
        prev_actions: torch.Tensor,
        masks: torch.Tensor,
        maps: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """The recurrent input of N frames: visual features, goal and previous-action embeddings."""
        visual = self.visual_fc(self.visual_encoder(depth))
        previous = self.prev_action_embedding(previous_action_index(prev_actions, masks))
        return torch.cat([visual, self.tgt_embeding(goal_features(goal)), previous], dim=1)


class RecurrentPointNavPolicy(nn.Module):
    """Base of the PointNav architectures: `net` plus the `action_distribution` and `critic` heads on its
    features; subclasses pass their net and set `architecture` and `depth_size`."""

    architecture: ClassVar[str] = ""
    depth_size: ClassVar[int] = 0
    uses_map: ClassVar[bool] = False

    def __init__(self, net: PolicyNet) -> None:
        super().__init__()
        self.net = net
        self.action_distribution = CategoricalHead(net.hidden_size, NUM_ACTIONS)
        self.critic = CriticHead(net.hidden_size)

    def initial_state(self, batch: int = 1) -> torch.Tensor:
        """Zero recurrent state (N, layers, hidden)."""
        encoder = self.net.state_encoder
        return torch.zeros(batch, encoder.num_recurrent_layers, self.net.hidden_size)

    def step(
        self,
        depth: torch.Tensor,
        goal: torch.Tensor,
        hidden: torch.Tensor,
        prev_actions: torch.Tensor,
        masks: torch.Tensor,
        maps: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """One step for N agents: action logits (N, 4), values (N, 1) and the new hidden state."""
        x = self.net.embed(depth, goal, prev_actions, masks, maps)
        features, hidden = self.net.state_encoder(x, hidden, masks)
        return self.action_distribution(features), self.critic(features), hidden

    @torch.no_grad()
    def act(
        self,
        depth: torch.Tensor,
        goal: torch.Tensor,
        hidden: torch.Tensor,
        prev_actions: torch.Tensor,
        masks: torch.Tensor,
        maps: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Greedy action indices (N, 1) and the new hidden state."""
        logits, _, hidden = self.step(depth, goal, hidden, prev_actions, masks, maps)
        return logits.argmax(-1, keepdim=True), hidden

    def evaluate_sequence(
        self,
        depth: torch.Tensor,
        goal: torch.Tensor,
        hidden: torch.Tensor,
        prev_actions: torch.Tensor,
        masks: torch.Tensor,
        maps: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (T, N, 4) and values (T, N, 1) of a rollout: inputs are (T, N, ...), `hidden` the state
        before its first step; the encoders run on all T * N frames at once, the recurrence step by step."""
        steps, envs = goal.shape[:2]
        x = self.net.embed(
            depth.flatten(0, 1),
            goal.flatten(0, 1),
            prev_actions.flatten(0, 1),
            masks.flatten(0, 1),
            None if maps is None else maps.flatten(0, 1),
        ).view(steps, envs, -1)
        outputs = []
        for t in range(steps):
            features, hidden = self.net.state_encoder(x[t], hidden, masks[t])
            outputs.append(features)
        features = torch.stack(outputs)
        return self.action_distribution(features), self.critic(features)


class GruStateEncoder(StateEncoder):
    """One GRU step; the hidden state is (N, 1, hidden) and is zeroed where masks are False."""

    num_recurrent_layers = 1

    def __init__(self, input_size: int, hidden_size: int) -> None:
        super().__init__()
        self.rnn = nn.GRU(input_size, hidden_size)

    def forward(
        self, x: torch.Tensor, hidden: torch.Tensor, masks: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        h = (hidden.permute(1, 0, 2) * masks.view(1, -1, 1).float()).contiguous()
        out, h = self.rnn(x.unsqueeze(0), h)
        return out.squeeze(0), h.permute(1, 0, 2)
