"""PointNav training: the follower-labelled environment, the DAgger and PPO objectives, the CLI's curves,
checkpoints and resume, and one DD-PPO update with two processes on CPU (gloo). Step counts are tiny: these
test the code paths, not the policy's quality (BENCHMARKS.md measures that)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from tango.navigation.actions import POINTNAV_ACTIONS
from tango.navigation.pointnav_checkpoint import build_policy, load_pointnav_policy, read_checkpoint
from tango.navigation.pointnav_net import PointNavPolicy
from tango.navigation.pointnav_small import SmallPointNavPolicy
from tango.navigation.train.config import EpisodeSettings, ImitationSettings, PointNavTrainConfig, PpoSettings
from tango.navigation.train.distributed import Workers
from tango.navigation.train.env import PointGoalEnv
from tango.navigation.train.objectives import Imitation, Ppo
from tango.navigation.train.record import Curves
from tango.navigation.train.rollouts import Rollout
from tango.navigation.train.trainer import Trainer
from tango.sim.config import EmbeddedSimConfig
from tests.sim.builders import write_room

ROOT = Path(__file__).resolve().parents[2]
STOP_INDEX = POINTNAV_ACTIONS.index("stop")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_room(tmp_path_factory.mktemp("room"))


def room_env(
    room: Path, seed: int = 0, teacher: str = "map_fmm", with_map: bool = False, **settings: float
) -> PointGoalEnv:
    sim = PointGoalEnv.sim_config(EmbeddedSimConfig(), 32)
    episode = EpisodeSettings(**settings)  # type: ignore[arg-type]
    return PointGoalEnv([room], sim, 64, episode, seed, teacher=teacher, with_map=with_map)


@pytest.mark.parametrize("teacher", ["map_fmm", "geodesic"])
def test_teacher_labels_drive_every_training_episode_to_success(room: Path, teacher: str) -> None:
    env = room_env(room, teacher=teacher, with_map=teacher == "map_fmm")
    observation = env.reset()
    assert observation.depth.shape == (64, 64, 1) and observation.goal.shape == (2,)
    assert 0.0 <= observation.depth.min() and observation.depth.max() <= 1.0
    if teacher == "map_fmm":  # the agent's own map, built from the first frame: something is explored
        assert observation.map is not None and observation.map.shape == (64, 64, 3)
        assert observation.map[..., 1].max() > 0.5 and observation.map[..., 2].max() == 1.0
    else:
        assert observation.map is None
    ended = []
    for _ in range(1000):
        transition = env.step(observation.teacher)
        observation = transition.observation
        if transition.ended is not None:
            ended.append(transition.ended)
            if len(ended) == 4:
                break
    env.close()
    assert len(ended) == 4
    assert all(e.success == 1.0 and e.distance_to_goal <= 0.2 for e in ended)
    assert np.mean([e.spl for e in ended]) > 0.8


def test_an_early_stop_fails_and_the_next_episode_starts(room: Path) -> None:
    env = room_env(room, seed=1)
    env.reset()
    first = env.episode
    transition = env.step(STOP_INDEX)
    env.close()
    assert transition.done and transition.ended is not None
    assert transition.ended.success == 0.0 and transition.ended.steps == 1
    assert env.episode is not first


def test_episodes_without_progress_end_after_patience(room: Path) -> None:
    env = room_env(room, seed=2, patience=5)
    env.reset()
    turns = [env.step(POINTNAV_ACTIONS.index("turn_left")) for _ in range(5)]
    env.close()
    assert [t.done for t in turns] == [False] * 4 + [True]
    assert turns[-1].ended is not None and turns[-1].ended.success == 0.0


def rollout_of(
    labels: list[list[int]], masks: list[list[bool]], rewards=None, dones=None, values=None
) -> Rollout:
    label_t = torch.tensor(labels)
    steps, envs = label_t.shape
    zeros = torch.zeros(steps, envs)
    return Rollout(
        depth=torch.zeros(steps, envs, 64, 64, 1),
        goal=torch.zeros(steps, envs, 2),
        prev_actions=torch.zeros(steps, envs, 1, dtype=torch.long),
        masks=torch.tensor(masks).view(steps, envs, 1),
        hidden=torch.zeros(envs, 1, 256),
        labels=label_t,
        actions=label_t.clone(),
        log_probs=zeros.clone(),
        values=zeros.clone() if values is None else torch.tensor(values),
        rewards=zeros.clone() if rewards is None else torch.tensor(rewards),
        dones=torch.zeros(steps, envs, dtype=torch.bool) if dones is None else torch.tensor(dones),
        next_value=torch.zeros(envs),
    )


def test_the_map_teacher_labels_the_steps_another_driver_took(room: Path) -> None:
    """DAgger: the policy drives, the FMM teacher labels; a forward step the teacher did not choose but that
    hit a wall is still recognised (marked on the agent's map), and turns are never taken for collisions."""
    env = room_env(room, seed=3, with_map=True)
    env.reset()
    turn = POINTNAV_ACTIONS.index("turn_left")
    for _ in range(6):
        env.step(turn)
    assert env._planner._recovery.collisions == 0 and not env._map._collision_pixels  # type: ignore[union-attr]
    forward = POINTNAV_ACTIONS.index("move_forward")
    before = env._map.version  # type: ignore[union-attr]
    blocked = 0
    for _ in range(40):  # walk straight until the wall stops the agent
        position = np.asarray(env.sim.get_agent_state().position)
        transition = env.step(forward)
        if transition.done:
            break
        moved = np.linalg.norm(np.asarray(env.sim.get_agent_state().position) - position)
        blocked += int(moved < 0.05)
    env.close()
    assert blocked > 0 and env._map.version > before  # type: ignore[union-attr]
    assert env._map._collision_pixels  # type: ignore[union-attr]


def test_imitation_weighs_label_changes_and_episode_starts() -> None:
    imitation = Imitation(ImitationSettings(inflection_weight=3.0), torch.Generator())
    rollout = rollout_of([[1], [1], [2], [2], [2]], [[True], [True], [True], [True], [False]])
    assert imitation.weights(rollout).view(-1).tolist() == [3.0, 1.0, 3.0, 1.0, 3.0]


def test_dagger_aggregates_a_bounded_set_of_past_rollouts() -> None:
    settings = ImitationSettings(epochs=1, minibatches=1, replay_rollouts=2, replay_per_update=3)
    imitation = Imitation(settings, torch.Generator().manual_seed(0))
    policy = SmallPointNavPolicy()
    seen: list[torch.Tensor] = []
    original = policy.evaluate_sequence

    def recording(depth, goal, hidden, prev, masks, maps=None):  # type: ignore[no-untyped-def]
        seen.append(depth[0, 0, 0, 0, 0].clone())
        return original(depth, goal, hidden, prev, masks, maps)

    policy.evaluate_sequence = recording  # type: ignore[method-assign]
    rollouts = []
    for index in range(4):
        rollout = rollout_of([[1], [2]], [[False], [True]])
        rollout.depth[:] = float(index)  # tells the rollouts apart
        rollouts.append(rollout)
        seen.clear()
        imitation.update(policy, rollout, lambda loss: loss.backward())
        assert seen[0] == float(index)  # the new rollout first
        assert len(seen) == (1 if index == 0 else 1 + 3)  # then three draws from the kept ones
        assert all(index - 2 <= float(v) < index for v in seen[1:])  # only the last two are kept
    assert len(imitation.replay) == 2


def test_dagger_beta_decays_then_the_policy_drives() -> None:
    imitation = Imitation(
        ImitationSettings(beta_end=0.0, beta_decay_fraction=0.5), torch.Generator().manual_seed(0)
    )
    imitation.schedule(0.25)
    assert imitation.beta == pytest.approx(0.5)
    imitation.schedule(0.8)
    assert imitation.beta == 0.0
    logits = torch.tensor([[0.0, 5.0, 0.0, 0.0]] * 3)
    assert imitation.chooser()(logits, torch.tensor([2, 2, 2])).tolist() == [1, 1, 1]
    imitation.beta = 1.0
    assert imitation.chooser()(logits, torch.tensor([2, 2, 2])).tolist() == [2, 2, 2]


def test_gae_cuts_the_bootstrap_at_an_episode_end() -> None:
    ppo = Ppo(PpoSettings(gamma=0.5, gae_lambda=1.0))
    rollout = rollout_of(
        [[1], [1]], [[True], [True]], rewards=[[1.0], [2.0]], dones=[[True], [False]], values=[[0.0], [0.0]]
    )
    rollout.next_value = torch.tensor([4.0])
    advantages, returns = ppo.returns(rollout)
    assert advantages.view(-1).tolist() == [1.0, 2.0 + 0.5 * 4.0]  # step 0 ended its episode: no bootstrap
    assert torch.equal(returns, advantages)


def test_ppo_reward_is_progress_plus_slack_and_the_success_bonus() -> None:
    ppo = Ppo(PpoSettings())
    assert ppo.reward(0.25, None) == pytest.approx(0.24)
    from tango.navigation.train.env import EpisodeEnd

    assert ppo.reward(0.0, EpisodeEnd(1.0, 0.9, 0.1, 10)) == pytest.approx(2.49)


def test_curves_drop_the_updates_a_resumed_run_makes_again(tmp_path: Path) -> None:
    path = tmp_path / "curves.csv"
    first = Curves(path)
    for update in (1, 2, 3):
        first.write({"update": update, "env_steps": 16 * update, "loss": 0.5})
    resumed = Curves(path, resumed_at=2)  # the run was killed after update 3; its checkpoint is from update 2
    resumed.write({"update": 3, "env_steps": 48, "loss": 0.25})
    rows = curve_rows(tmp_path)
    assert [(r["update"], r["loss"]) for r in rows] == [("1", "0.5"), ("2", "0.5"), ("3", "0.25")]


def test_training_seeds_keep_benchmark_and_validation_apartments_out() -> None:
    with pytest.raises(ValueError, match="must all differ"):
        PointNavTrainConfig(train_scene_seed=0)
    with pytest.raises(ValueError, match="must all differ"):
        PointNavTrainConfig(train_scene_seed=5, val_scene_seed=5)


TINY_RUN = [
    "train.architecture=small",
    "train.num_envs=2",
    "train.rollout_steps=8",
    "train.train_scenes=1",
    "train.val_scenes=1",
    "train.val_episodes_per_scene=1",
    "train.episode.max_steps=20",
    "train.render_size=32",
    "train.threads=1",
    "train.eval_every=1",
    "train.checkpoint_every=1",
    "train.progress_bar=false",
]


def run_cli(tmp_path: Path, prefix: list[str], *overrides: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TANGO_CACHE": str(tmp_path / "cache"), "OMP_NUM_THREADS": "1"}
    command = [*prefix, "-m", "tango.navigation.train", *TINY_RUN, *overrides]
    return subprocess.run(
        command, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def curve_rows(out: Path) -> list[dict[str, str]]:
    with open(out / "curves.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def test_imitation_cli_writes_curves_and_a_loadable_policy_then_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run_cli(
        tmp_path, [sys.executable], "--device", "cpu", f"train.output_dir={out}", "train.total_steps=16"
    )
    assert first.returncode == 0, first.stderr[-3000:]
    rows = curve_rows(out)
    assert [r["update"] for r in rows] == ["1"] and rows[0]["env_steps"] == "16"
    assert rows[0]["phase"] == "imitation" and float(rows[0]["loss"]) > 0 and rows[0]["val_episodes"] == "1"
    assert float(rows[0]["cpu_s"]) > 0
    assert isinstance(load_pointnav_policy(out / "policy.pth"), SmallPointNavPolicy)
    snapshot = read_checkpoint(out / "checkpoints" / "policy_000000016.pth")  # one per validation
    assert snapshot["tango_pointnav"]["validation"]["val_episodes"] == 1
    assert snapshot["tango_pointnav"]["device"] == "cpu"
    second = run_cli(tmp_path, [sys.executable], f"train.output_dir={out}", "train.total_steps=32")
    assert second.returncode == 0, second.stderr[-3000:]
    rows = curve_rows(out)
    assert [r["update"] for r in rows] == ["1", "2"] and rows[1]["env_steps"] == "32"
    assert float(rows[1]["cpu_s"]) > float(rows[0]["cpu_s"])
    progress = read_checkpoint(out / "checkpoints" / "latest.pth")["resume"]["progress"]
    assert progress["update"] == 2 and progress["env_steps"] == 32


def test_ddppo_one_update_with_two_processes_on_cpu(tmp_path: Path) -> None:
    out = tmp_path / "ddppo"
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2"]
    result = run_cli(
        tmp_path,
        torchrun,
        f"train.output_dir={out}",
        "train.phase=ppo",
        "train.total_steps=32",
        "train.seed=7",
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    rows = curve_rows(out)
    assert (
        len(rows) == 1 and rows[0]["phase"] == "ppo" and rows[0]["env_steps"] == "32"
    )  # 2 x 2 envs x 8 steps
    assert rows[0]["entropy"] != "" and rows[0]["value_loss"] != ""
    saved = read_checkpoint(out / "policy.pth")
    assert saved["tango_pointnav"]["processes"] == 2
    torch.manual_seed(7)
    initial = build_policy("small").state_dict()
    trained = load_pointnav_policy(out / "policy.pth").state_dict()
    assert any(not torch.equal(initial[k], trained[k]) for k in initial)  # the averaged update was applied


def test_resnet18_training_writes_a_habitat_baselines_checkpoint(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path / "cache"))
    config = PointNavTrainConfig(
        output_dir=str(tmp_path / "resnet"), architecture="resnet18", total_steps=4, num_envs=1,
        rollout_steps=4, train_scenes=1, val_scenes=1, val_episodes_per_scene=1, render_size=32, threads=1,
        progress_bar=False, episode=EpisodeSettings(max_steps=5),
        imitation=ImitationSettings(epochs=1, minibatches=1),
    )  # fmt: skip
    final = Trainer(config, EmbeddedSimConfig(), Workers()).run()
    assert final is not None
    saved = read_checkpoint(final)
    assert set(saved["state_dict"]) == {f"actor_critic.{k}" for k in PointNavPolicy().state_dict()}
    assert isinstance(load_pointnav_policy(final), PointNavPolicy)
