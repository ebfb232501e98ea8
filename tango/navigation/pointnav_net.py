"""DD-PPO PointNav network (ResNet-18 with GroupNorm on depth, 2-layer LSTM), parameter-compatible with
habitat-baselines' PointNavResNetPolicy for a depth + pointgoal_with_gps_compass observation space and 4
discrete actions, so its checkpoints (and VLFM's pointnav_weights.pth) load by state-dict key."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from tango.navigation.pointnav_policy import (
    NUM_ACTIONS,
    PolicyNet,
    RecurrentPointNavPolicy,
    StateEncoder,
)

HIDDEN_SIZE = 512
DEPTH_SIZE = 224


class BasicBlock(nn.Module):
    """Residual block: two 3x3 convs with GroupNorm; `convs` and `downsample` names match the checkpoints."""

    def __init__(self, inplanes: int, planes: int, ngroups: int, stride: int = 1) -> None:
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False),
            nn.GroupNorm(ngroups, planes),
            nn.ReLU(True),
            nn.Conv2d(planes, planes, 3, padding=1, bias=False),
            nn.GroupNorm(ngroups, planes),
        )
        self.downsample: nn.Module | None = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False), nn.GroupNorm(ngroups, planes)
            )
        self.relu = nn.ReLU(True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        residual = x if self.downsample is None else self.downsample(x)
        return self.relu(self.convs(x) + residual)


class ResNet18(nn.Module):
    """habitat-baselines' GroupNorm ResNet-18 trunk (base planes 32, 16 groups)."""

    def __init__(self, in_channels: int = 1, base_planes: int = 32, ngroups: int = 16) -> None:
        super().__init__()
        self.conv1 = nn.Sequential(
            nn.Conv2d(in_channels, base_planes, 7, stride=2, padding=3, bias=False),
            nn.GroupNorm(ngroups, base_planes),
            nn.ReLU(True),
        )
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        planes = [base_planes, base_planes * 2, base_planes * 4, base_planes * 8]
        inplanes = base_planes
        layers = []
        for i, p in enumerate(planes):
            stride = 1 if i == 0 else 2
            layers.append(nn.Sequential(BasicBlock(inplanes, p, ngroups, stride), BasicBlock(p, p, ngroups)))
            inplanes = p
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.final_channels = inplanes

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.maxpool(self.conv1(x))
        return self.layer4(self.layer3(self.layer2(self.layer1(x))))


class DepthEncoder(nn.Module):
    """Average-pool by 2, ResNet-18, then a 3x3 compression to 128 channels (2048 features at 224 px)."""

    def __init__(self) -> None:
        super().__init__()
        self.running_mean_and_var = nn.Sequential()
        self.backbone = ResNet18()
        self.compression = nn.Sequential(
            nn.Conv2d(self.backbone.final_channels, 128, 3, padding=1, bias=False),
            nn.GroupNorm(1, 128),
            nn.ReLU(True),
        )

    def forward(self, depth: torch.Tensor) -> torch.Tensor:
        """depth: (N, H, W, 1) normalised to [0, 1]."""
        x = F.avg_pool2d(depth.permute(0, 3, 1, 2), 2)
        return self.compression(self.backbone(self.running_mean_and_var(x)))


class PointNavNet(PolicyNet):
    """Visual features + goal embedding + previous-action embedding (576 inputs) -> 2-layer LSTM state."""

    hidden_size = HIDDEN_SIZE

    def __init__(self) -> None:
        super().__init__()
        self.prev_action_embedding = nn.Embedding(NUM_ACTIONS + 1, 32)
        self.tgt_embeding = nn.Linear(3, 32)
        self.visual_encoder = DepthEncoder()
        self.visual_fc = nn.Sequential(nn.Flatten(), nn.Linear(2048, HIDDEN_SIZE), nn.ReLU(True))
        self.state_encoder = LstmStateEncoder(HIDDEN_SIZE + 64, HIDDEN_SIZE, 2)


class LstmStateEncoder(StateEncoder):
    """One LSTM step; hidden states are packed as (N, 2 * layers, hidden) = cat(h, c), as habitat-baselines."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int) -> None:
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size, num_layers)
        self.num_recurrent_layers = 2 * num_layers

    def forward(
        self, x: torch.Tensor, hidden: torch.Tensor, masks: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = hidden.permute(1, 0, 2) * masks.view(1, -1, 1).float()
        h, c = torch.chunk(hidden.contiguous(), 2, 0)
        out, (h, c) = self.rnn(x.unsqueeze(0), (h.contiguous(), c.contiguous()))
        return out.squeeze(0), torch.cat([h, c], 0).permute(1, 0, 2)


class PointNavPolicy(RecurrentPointNavPolicy):
    """The full policy: `net`, `action_distribution`, `critic` (the checkpoint's top-level names)."""

    architecture = "resnet18"
    depth_size = DEPTH_SIZE

    def __init__(self) -> None:
        super().__init__(PointNavNet())
