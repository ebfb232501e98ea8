"""The PointNav policy module: checkpoint formats load by key, and a random-init policy steps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tango.navigation.actions import POINTNAV_ACTIONS, STOP
from tango.navigation.config import NavigationConfig
from tango.navigation.pointnav_controller import CheckpointError, PointNavController, load_pointnav_policy
from tango.navigation.pointnav_net import PointNavPolicy

# Parameter names and shapes of habitat-baselines' PointNavResNetPolicy (depth + pointgoal_with_gps_compass,
# resnet18, 32 base planes, LSTM 2 x 512, Discrete(4)), written out so an architecture drift fails here.
HABITAT_BASELINES_SHAPES = {
    "net.prev_action_embedding.weight": (5, 32),
    "net.tgt_embeding.weight": (32, 3),
    "net.visual_encoder.backbone.conv1.0.weight": (32, 1, 7, 7),
    "net.visual_encoder.backbone.layer2.0.downsample.0.weight": (64, 32, 1, 1),
    "net.visual_encoder.backbone.layer4.1.convs.3.weight": (256, 256, 3, 3),
    "net.visual_encoder.compression.0.weight": (128, 256, 3, 3),
    "net.visual_encoder.compression.1.weight": (128,),
    "net.visual_fc.1.weight": (512, 2048),
    "net.state_encoder.rnn.weight_ih_l0": (2048, 576),
    "net.state_encoder.rnn.weight_hh_l1": (2048, 512),
    "action_distribution.linear.weight": (4, 512),
    "critic.fc.weight": (1, 512),
}


def test_random_init_policy_has_habitat_baselines_parameter_names() -> None:
    torch.manual_seed(0)
    shapes = {k: tuple(v.shape) for k, v in PointNavPolicy().state_dict().items()}
    for key, shape in HABITAT_BASELINES_SHAPES.items():
        assert shapes.get(key) == shape, key
    assert not any("running_mean_and_var" in k for k in shapes)


@pytest.mark.parametrize("wrapped", [True, False])
def test_random_init_checkpoint_saves_loads_and_steps(tmp_path: Path, wrapped: bool) -> None:
    torch.manual_seed(0)
    policy = PointNavPolicy()
    state = policy.state_dict()
    path = tmp_path / "pointnav.pth"
    torch.save({"state_dict": state, "config": {"note": "random init"}} if wrapped else state, path)
    loaded = load_pointnav_policy(path)
    for key, value in state.items():
        assert torch.equal(loaded.state_dict()[key], value)
    controller = PointNavController(NavigationConfig(pointnav_checkpoint=str(path)), 0.5, 5.0)
    depth = np.random.default_rng(0).uniform(0.5, 5.0, (96, 128)).astype(np.float32)
    actions = [controller.act(depth, np.zeros(3), 0.0, np.array([1.0, 0.0, -3.0]), 0.2) for _ in range(3)]
    assert all(a in POINTNAV_ACTIONS for a in actions)
    assert controller._hidden.abs().sum() > 0  # the recurrent state advanced
    assert controller.act(depth, np.zeros(3), 0.0, np.array([0.1, 0.0, 0.0]), 0.2) == STOP


def test_missing_or_incompatible_checkpoint_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="not found"):
        load_pointnav_policy(tmp_path / "absent.pth")
    bad = tmp_path / "bad.pth"
    torch.save({"state_dict": {"net.tgt_embeding.weight": torch.zeros(32, 3)}}, bad)
    with pytest.raises(CheckpointError, match="bad.pth: missing"):
        load_pointnav_policy(bad)
