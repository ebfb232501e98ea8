"""A small PointNav policy that trains on two CPU cores: four convolutions on 64 x 64 depth and a 256-d GRU
(about a million parameters, 4 MB). Inputs, outputs and top-level names are those of the ResNet-18 policy."""

from __future__ import annotations

import torch
from torch import nn

from tango.navigation.pointnav_policy import (
    NUM_ACTIONS,
    GruStateEncoder,
    PolicyNet,
    RecurrentPointNavPolicy,
)

SMALL_DEPTH_SIZE = 64
SMALL_HIDDEN_SIZE = 256


class SmallDepthEncoder(nn.Module):
    """64 x 64 depth -> 32 x 8 x 8 features (strided convolutions with GroupNorm)."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for inputs, outputs, kernel, stride in (
            (1, 32, 5, 2),
            (32, 64, 3, 2),
            (64, 64, 3, 2),
            (64, 32, 3, 1),
        ):
            layers += [
                nn.Conv2d(inputs, outputs, kernel, stride=stride, padding=kernel // 2, bias=False),
                nn.GroupNorm(8, outputs),
                nn.ReLU(True),
            ]
        self.convs = nn.Sequential(*layers)
        self.output_size = 32 * (SMALL_DEPTH_SIZE // 8) ** 2

    def forward(self, depth: torch.Tensor) -> torch.Tensor:
        """depth: (N, 64, 64, 1) in [0, 1]."""
        return self.convs(depth.permute(0, 3, 1, 2))


class SmallPointNavNet(PolicyNet):
    """Depth features + goal and previous-action embeddings (320 inputs) -> one GRU layer."""

    hidden_size = SMALL_HIDDEN_SIZE

    def __init__(self) -> None:
        super().__init__()
        self.visual_encoder = SmallDepthEncoder()
        self.visual_fc = nn.Sequential(
            nn.Flatten(), nn.Linear(self.visual_encoder.output_size, SMALL_HIDDEN_SIZE), nn.ReLU(True)
        )
        self.tgt_embeding = nn.Linear(3, 32)
        self.prev_action_embedding = nn.Embedding(NUM_ACTIONS + 1, 32)
        self.state_encoder = GruStateEncoder(SMALL_HIDDEN_SIZE + 64, SMALL_HIDDEN_SIZE)


class SmallPointNavPolicy(RecurrentPointNavPolicy):
    """The small CNN + GRU policy (`agent.navigation` loads it from checkpoints that name it)."""

    architecture = "small"
    depth_size = SMALL_DEPTH_SIZE

    def __init__(self) -> None:
        super().__init__(SmallPointNavNet())
