"""Small PointNav policies that train on two CPU cores: four convolutions on 64 x 64 depth and a 256-d GRU
(about a million parameters, 4 MB; inputs, outputs and top-level names those of the ResNet-18 policy), and the
same with a second encoder on the agent's egocentric obstacle map (`small_map`, 1.6 million parameters)."""

from __future__ import annotations

import torch
from torch import nn

from tango.navigation.egocentric_map import MAP_CELLS, MAP_CHANNELS
from tango.navigation.pointnav_policy import (
    NUM_ACTIONS,
    GruStateEncoder,
    PolicyNet,
    RecurrentPointNavPolicy,
)

SMALL_DEPTH_SIZE = 64
SMALL_HIDDEN_SIZE = 256


class SmallDepthEncoder(nn.Module):
    """64 x 64 images (depth, or the map's channels) -> 32 x 8 x 8 features (strided convolutions with
    GroupNorm)."""

    def __init__(self, channels: int = 1) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for inputs, outputs, kernel, stride in (
            (channels, 32, 5, 2),
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

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        """image: (N, 64, 64, channels) in [0, 1]."""
        return self.convs(image.permute(0, 3, 1, 2))


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


class SmallMapPointNavNet(PolicyNet):
    """The small net plus `map_encoder` + `map_fc` on the egocentric map (MAP_CHANNELS x 64 x 64): depth, map,
    goal and previous-action features (576 inputs) -> one GRU layer."""

    hidden_size = SMALL_HIDDEN_SIZE

    def __init__(self) -> None:
        super().__init__()
        assert MAP_CELLS == SMALL_DEPTH_SIZE
        self.visual_encoder = SmallDepthEncoder()
        self.visual_fc = nn.Sequential(
            nn.Flatten(), nn.Linear(self.visual_encoder.output_size, SMALL_HIDDEN_SIZE), nn.ReLU(True)
        )
        self.map_encoder = SmallDepthEncoder(MAP_CHANNELS)
        self.map_fc = nn.Sequential(
            nn.Flatten(), nn.Linear(self.map_encoder.output_size, SMALL_HIDDEN_SIZE), nn.ReLU(True)
        )
        self.tgt_embeding = nn.Linear(3, 32)
        self.prev_action_embedding = nn.Embedding(NUM_ACTIONS + 1, 32)
        self.state_encoder = GruStateEncoder(2 * SMALL_HIDDEN_SIZE + 64, SMALL_HIDDEN_SIZE)

    def embed(
        self,
        depth: torch.Tensor,
        goal: torch.Tensor,
        prev_actions: torch.Tensor,
        masks: torch.Tensor,
        maps: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if maps is None:
            raise ValueError("the small_map policy needs the egocentric map (maps=...)")
        rest = super().embed(depth, goal, prev_actions, masks)
        return torch.cat([self.map_fc(self.map_encoder(maps)), rest], dim=1)


class SmallMapPointNavPolicy(RecurrentPointNavPolicy):
    """The small policy that also sees the agent's egocentric obstacle map (`agent.navigation` builds it from
    the navigator's map at run time)."""

    architecture = "small_map"
    depth_size = SMALL_DEPTH_SIZE
    uses_map = True

    def __init__(self) -> None:
        super().__init__(SmallMapPointNavNet())
