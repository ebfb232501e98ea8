"""The training settings (`train` section of configs/train_pointnav.yaml); distances in metres."""

from __future__ import annotations

from dataclasses import dataclass, field

PHASES = ("imitation", "ppo")
TEACHERS = ("map_fmm", "geodesic")
ARCHITECTURE_NAMES = ("small", "small_map", "resnet18")


@dataclass
class EpisodeSettings:
    """Training and validation episodes: habitat-lab's PointNav rules, plus the teacher's stop radius (under
    the 0.2 m success radius, so its stops succeed) and a cut for episodes that stopped making progress."""

    closest_distance: float = 1.0
    furthest_distance: float = 30.0
    success_distance: float = 0.2
    stop_radius: float = 0.15
    teacher_stop_distance: float = 0.15
    max_steps: int = 500
    patience: int = 100
    episodes_per_scene: int = 8


@dataclass
class ImitationSettings:
    """DAgger: the executed action is the teacher's with probability beta (decaying linearly from
    beta_start to beta_end over the first beta_decay_fraction of training), else the policy's greedy action
    (beta_end 0, the policy alone, made every run measured here collapse: BENCHMARKS.md, "PointGoal policy");
    every step is labelled by the teacher. Steps where the label changes weigh `inflection_weight`. Each update
    makes `epochs` passes of `minibatches` gradient steps over the new rollout and `replay_per_update` rollouts
    drawn from the last `replay_rollouts` (DAgger's aggregated data set, bounded; each process keeps its own,
    a resumed run starts it empty)."""

    epochs: int = 1
    minibatches: int = 4
    beta_start: float = 1.0
    beta_end: float = 0.5
    beta_decay_fraction: float = 0.2
    inflection_weight: float = 3.0
    replay_rollouts: int = 32
    replay_per_update: int = 2


@dataclass
class PpoSettings:
    """DD-PPO (habitat-baselines' PointNav defaults): reward = decrease of the geodesic distance + slack, plus
    success_reward on a successful stop."""

    epochs: int = 2
    minibatches: int = 2
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    gamma: float = 0.99
    gae_lambda: float = 0.95
    success_reward: float = 2.5
    slack_reward: float = -0.01


@dataclass
class PointNavTrainConfig:
    """What to train, on which apartments, for how long, and where the curves and checkpoints go.

    Training apartments are generated from `train_scene_seed`, validation apartments from `val_scene_seed`
    (the synthetic benchmark dataset uses seed 0: none of them is seen in training). `total_steps` counts
    environment steps over all processes; `threads` is torch's per process. `device` (auto|cpu|cuda|cuda:N, or
    `--device` on the command line) holds the policy, rollouts and updates; under torchrun each rank takes
    cuda:LOCAL_RANK (tango.navigation.train.distributed). `teacher` labels the imitation
    steps: "map_fmm" (the FMM planner on the agent's own obstacle map: what the policy could know) or "geodesic"
    (the oracle follower on the true navigability grid).
    """

    output_dir: str = "runs/pointnav_train"
    architecture: str = "small_map"
    phase: str = "imitation"
    teacher: str = "map_fmm"
    init_checkpoint: str = ""
    total_steps: int = 300_000
    num_envs: int = 8
    rollout_steps: int = 64
    lr: float = 1e-3
    max_grad_norm: float = 0.5
    seed: int = 0
    threads: int = 2
    device: str = "auto"
    render_size: int = 128
    train_scenes: int = 60
    train_scene_seed: int = 1
    val_scenes: int = 4
    val_scene_seed: int = 2
    val_episodes_per_scene: int = 10
    eval_every: int = 40
    checkpoint_every: int = 20
    progress_bar: bool = True
    episode: EpisodeSettings = field(default_factory=EpisodeSettings)
    imitation: ImitationSettings = field(default_factory=ImitationSettings)
    ppo: PpoSettings = field(default_factory=PpoSettings)

    def __post_init__(self) -> None:
        from tango.devices import check_device_name

        check_device_name(self.device, "train.device")
        if self.architecture not in ARCHITECTURE_NAMES:
            raise ValueError(
                f"train.architecture must be one of {ARCHITECTURE_NAMES}, got {self.architecture!r}"
            )
        if self.teacher not in TEACHERS:
            raise ValueError(f"train.teacher must be one of {TEACHERS}, got {self.teacher!r}")
        if self.phase not in PHASES:
            raise ValueError(f"train.phase must be one of {PHASES}, got {self.phase!r}")
        from tango.scenes.datasets.default import DEFAULT_CONFIG

        if len({self.train_scene_seed, self.val_scene_seed, DEFAULT_CONFIG.seed}) < 3:
            raise ValueError(
                f"train.train_scene_seed, train.val_scene_seed and the benchmark dataset's seed "
                f"{DEFAULT_CONFIG.seed} "
                "must all differ (validation and benchmark apartments are never trained on)"
            )
