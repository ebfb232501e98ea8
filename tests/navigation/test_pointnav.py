"""The PointNav policies: checkpoint formats load by key (habitat-baselines, VLFM, ours), random-init policies
step, sequences replay as steps, and the default checkpoint is found from anywhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import POINTNAV_ACTIONS, STOP
from tango.navigation.config import NavigationConfig
from tango.navigation.egocentric_map import MAP_CELLS, MAP_CHANNELS
from tango.navigation.pointnav_checkpoint import (
    CheckpointError,
    checkpoint_dict,
    load_pointnav_policy,
    resolve_checkpoint_path,
)
from tango.navigation.pointnav_controller import PointNavController, policy_depth
from tango.navigation.pointnav_net import PointNavPolicy
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.pointnav_small import SmallMapPointNavPolicy, SmallPointNavPolicy

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


@pytest.mark.parametrize("layout", ["habitat_baselines_ddppo", "wrapped_plain_keys", "vlfm_plain_state_dict"])
def test_random_init_checkpoint_in_published_layouts_loads_and_steps(tmp_path: Path, layout: str) -> None:
    torch.manual_seed(0)
    policy = PointNavPolicy()
    state = policy.state_dict()
    path = tmp_path / "pointnav.pth"
    if layout == "habitat_baselines_ddppo":  # PPO agent's state dict: actor_critic.<policy key>
        saved: dict = {"state_dict": {f"actor_critic.{k}": v for k, v in state.items()}, "config": {"x": 1}}
    elif layout == "wrapped_plain_keys":
        saved = {"state_dict": state, "config": {"note": "random init"}}
    else:
        saved = state
    torch.save(saved, path)
    loaded = load_pointnav_policy(path)
    assert isinstance(loaded, PointNavPolicy)
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


def test_resnet_checkpoints_tango_writes_have_habitat_baselines_keys() -> None:
    torch.manual_seed(0)
    saved = checkpoint_dict(PointNavPolicy(), {"train": {}}, {"seed": 0})
    expected = {f"actor_critic.{key}" for key in PointNavPolicy().state_dict()}
    assert set(saved["state_dict"]) == expected
    for key, shape in HABITAT_BASELINES_SHAPES.items():
        assert tuple(saved["state_dict"][f"actor_critic.{key}"].shape) == shape
    assert saved["tango_pointnav"]["architecture"] == "resnet18"


def test_random_init_small_policy_checkpoint_round_trips_and_drives_the_controller(tmp_path: Path) -> None:
    torch.manual_seed(0)
    policy = SmallPointNavPolicy()
    path = tmp_path / "small.pth"
    torch.save(checkpoint_dict(policy, {}, {"seed": 0}), path)
    assert path.stat().st_size < 10 * 2**20  # the shipped checkpoint's size limit
    loaded = load_pointnav_policy(path)
    assert isinstance(loaded, SmallPointNavPolicy) and loaded.depth_size == 64
    for key, value in policy.state_dict().items():
        assert torch.equal(loaded.state_dict()[key], value)
    controller = PointNavController(NavigationConfig(pointnav_checkpoint=str(path)), 0.5, 5.0)
    depth = np.random.default_rng(0).uniform(0.5, 5.0, (256, 256)).astype(np.float32)
    assert controller.act(depth, np.zeros(3), 0.0, np.array([1.0, 0.0, -3.0]), 0.2) in POINTNAV_ACTIONS
    assert controller._hidden.shape == (1, 1, 256) and controller._hidden.abs().sum() > 0


def test_random_init_map_policy_drives_the_controller_from_the_agents_map(tmp_path: Path) -> None:
    torch.manual_seed(0)
    path = tmp_path / "small_map.pth"
    torch.save(checkpoint_dict(SmallMapPointNavPolicy(), {}, {"seed": 0}), path)
    assert path.stat().st_size < 10 * 2**20  # the shipped checkpoint's size limit
    loaded = load_pointnav_policy(path)
    assert isinstance(loaded, SmallMapPointNavPolicy) and loaded.uses_map
    controller = PointNavController(NavigationConfig(pointnav_checkpoint=str(path)), 0.5, 5.0, loaded)
    depth = np.random.default_rng(0).uniform(0.5, 5.0, (256, 256)).astype(np.float32)
    goal = np.array([1.0, 0.0, -3.0])
    with pytest.raises(ValueError, match="small_map PointNav policy needs the obstacle map"):
        controller.act(depth, np.zeros(3), 0.0, goal, 0.2)
    omap = ObstacleMap()
    assert controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap) in POINTNAV_ACTIONS


class AlwaysForward(SmallMapPointNavPolicy):
    """A random-init map policy whose logits always choose move_forward."""

    def step(self, *inputs, **named):  # type: ignore[no-untyped-def]
        _, values, hidden = super().step(*inputs, **named)
        return torch.tensor([[0.0, 9.0, 0.0, 0.0]]), values, hidden


def test_the_controller_marks_a_blocked_forward_step_on_the_map(tmp_path: Path) -> None:
    controller = PointNavController(NavigationConfig(), 0.5, 5.0, AlwaysForward().eval())
    depth = np.full((64, 64), 5.0, np.float32)
    omap = ObstacleMap()
    goal = np.array([0.0, 0.0, -3.0])
    assert controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap) == "move_forward"
    assert not omap.obstacles.any()
    controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap)  # the forward step did not move the agent
    rows, cols = np.nonzero(omap.obstacles)
    ahead = omap.grid.world_to_pixel(np.array([[0.0, 0.0, -0.23]]))[0]
    assert len(rows) > 0 and abs(rows.mean() - ahead[0]) <= 1 and abs(cols.mean() - ahead[1]) <= 2


def test_the_controller_turns_away_after_repeated_blocked_forward_steps() -> None:
    controller = PointNavController(
        NavigationConfig(recovery_after_collisions=3), 0.5, 5.0, AlwaysForward().eval()
    )
    depth = np.full((64, 64), 5.0, np.float32)
    omap, goal = ObstacleMap(), np.array([0.0, 0.0, -3.0])
    actions = [controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap) for _ in range(10)]
    assert actions[:3] == ["move_forward"] * 3  # the policy's own choice until the third blocked step
    turns = actions[3 : actions.index("move_forward", 3)]
    assert 2 <= len(turns) <= 5 and len(set(turns)) == 1 and turns[0] in ("turn_left", "turn_right")


def test_random_init_policy_without_recovery_keeps_pushing_into_the_wall() -> None:
    controller = PointNavController(
        NavigationConfig(recovery_after_collisions=0), 0.5, 5.0, AlwaysForward().eval()
    )
    depth = np.full((64, 64), 5.0, np.float32)
    omap, goal = ObstacleMap(), np.array([0.0, 0.0, -3.0])
    assert {controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap) for _ in range(8)} == {"move_forward"}


def test_the_policys_stop_is_replaced_by_its_next_best_action_outside_the_stop_radius() -> None:
    class PrefersStop(SmallMapPointNavPolicy):
        def step(self, *inputs, **named):  # type: ignore[no-untyped-def]
            _, values, hidden = super().step(*inputs, **named)
            return torch.tensor([[9.0, 0.0, 0.0, 5.0]]), values, hidden

    controller = PointNavController(NavigationConfig(), 0.5, 5.0, PrefersStop().eval())
    depth = np.full((64, 64), 5.0, np.float32)
    omap, goal = ObstacleMap(), np.array([0.0, 0.0, -3.0])
    assert controller.act(depth, np.zeros(3), 0.0, goal, 0.2, omap) == "turn_right"
    assert controller.act(depth, np.array([0.0, 0.0, -2.9]), 0.0, goal, 0.2, omap) == "stop"


def test_a_small_checkpoint_is_not_loaded_as_the_resnet(tmp_path: Path) -> None:
    saved = checkpoint_dict(SmallPointNavPolicy(), {}, {})
    saved.pop("tango_pointnav")  # without our record the file reads as habitat-baselines' ResNet-18
    torch.save(saved, tmp_path / "unnamed.pth")
    with pytest.raises(CheckpointError, match="unnamed.pth: missing .* resnet18 policy weights"):
        load_pointnav_policy(tmp_path / "unnamed.pth")


@pytest.mark.parametrize("policy_class", [SmallPointNavPolicy, SmallMapPointNavPolicy, PointNavPolicy])
def test_random_init_policy_replays_a_rollout_as_its_steps(
    policy_class: type[RecurrentPointNavPolicy],
) -> None:
    torch.manual_seed(0)
    policy = policy_class().eval()
    steps, envs, size = 3, 2, policy.depth_size
    depth = torch.rand(steps, envs, size, size, 1)
    goal = torch.rand(steps, envs, 2) * 3
    prev = torch.randint(0, 4, (steps, envs, 1))
    masks = torch.tensor([[[False], [True]], [[True], [True]], [[True], [False]]])
    hidden = torch.rand(envs, *policy.initial_state(1).shape[1:])
    maps = torch.rand(steps, envs, MAP_CELLS, MAP_CELLS, MAP_CHANNELS) if policy.uses_map else None
    with torch.no_grad():
        logits, values = policy.evaluate_sequence(depth, goal, hidden, prev, masks, maps)
        state = hidden
        for t in range(steps):
            step_maps = None if maps is None else maps[t]
            step_logits, step_values, state = policy.step(
                depth[t], goal[t], state, prev[t], masks[t], step_maps
            )
            torch.testing.assert_close(logits[t], step_logits, rtol=1e-4, atol=1e-5)
            torch.testing.assert_close(values[t], step_values, rtol=1e-4, atol=1e-5)


def test_policy_depth_normalises_fills_holes_and_area_resizes() -> None:
    depth = np.full((8, 8), 2.75, np.float32)
    depth[:4] = 0.0  # no return: reads as far
    frame = policy_depth(depth, 0.5, 5.0, 4)
    assert frame.shape == (4, 4) and frame.dtype == np.float32
    np.testing.assert_allclose(frame[:2], 1.0)
    np.testing.assert_allclose(frame[2:], 0.5)


def test_default_checkpoint_path_is_found_from_another_directory(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    resolved = resolve_checkpoint_path(NavigationConfig().pointnav_checkpoint)
    assert resolved == Path(__file__).resolve().parents[2] / "checkpoints" / "pointnav_small.pth"
