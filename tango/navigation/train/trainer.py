"""The training loop: collect a rollout in every process, update with gradients averaged over processes,
log a curve row, validate and checkpoint on the main process; a rerun into the same folder resumes."""

from __future__ import annotations

import logging
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from tango.navigation.pointnav_checkpoint import build_policy, checkpoint_dict, load_pointnav_policy
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.train.config import PointNavTrainConfig
from tango.navigation.train.distributed import (
    Workers,
    average_gradients,
    barrier,
    broadcast_parameters,
    sum_over_workers,
)
from tango.navigation.train.env import PointGoalEnv
from tango.navigation.train.objectives import Imitation, Ppo
from tango.navigation.train.record import Curves, Progress, load_resumable, save_atomic, save_resumable
from tango.navigation.train.rollouts import EnvBatch
from tango.navigation.train.scenes import apartment_scenes
from tango.navigation.train.validation import run_validation, validation_episodes
from tango.sim.config import EmbeddedSimConfig
from tango.threads import ThreadCounts, pin_threads

LOG = logging.getLogger(__name__)
LATEST = "checkpoints/latest.pth"
FINAL = "policy.pth"
"""Also written: checkpoints/policy_<env steps>.pth at every validation (weights only, to pick from)."""


class Trainer:
    """One process's share of a run (all of it with one process)."""

    def __init__(self, config: PointNavTrainConfig, sim: EmbeddedSimConfig, workers: Workers) -> None:
        self.config, self.workers = config, workers
        self.out = Path(config.output_dir)
        pin_threads(
            ThreadCounts(compute=config.threads)
        )  # before the first GL context: no rasteriser threads
        torch.manual_seed(config.seed)
        self.device = workers.device
        self.policy = self._initial_policy().to(self.device)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=config.lr, eps=1e-5)
        self.progress = load_resumable(self.out / LATEST, self.policy, self.optimizer) or Progress()
        self.validation: dict[str, float] = {}
        broadcast_parameters(self.policy, workers)
        self.sim = PointGoalEnv.sim_config(sim, config.render_size)
        self.generator = torch.Generator().manual_seed(config.seed * 1000 + workers.rank)
        self.imitation = Imitation(config.imitation, self.generator)
        self.ppo = Ppo(config.ppo)
        if workers.is_main:
            apartment_scenes(config.train_scenes, config.train_scene_seed)
        barrier(workers)
        self.train_scenes = apartment_scenes(config.train_scenes, config.train_scene_seed)

    def _initial_policy(self) -> RecurrentPointNavPolicy:
        if self.config.init_checkpoint:
            policy = load_pointnav_policy(self.config.init_checkpoint)
            if policy.architecture != self.config.architecture:
                raise ValueError(
                    f"train.init_checkpoint holds a {policy.architecture} policy, "
                    f"train.architecture is {self.config.architecture}"
                )
            return policy.train()
        return build_policy(self.config.architecture).train()

    def metadata(self) -> dict[str, Any]:
        """The record stored beside the weights (also the model card's source)."""
        sim = self.sim
        return {
            "depth_range": [sim.depth_min, sim.depth_max],
            "hfov": sim.hfov,
            "camera_height": sim.camera_height,
            "forward_step": sim.forward_step,
            "turn_angle": sim.turn_angle,
            "phase": self.config.phase,
            "teacher": self.config.teacher,
            "seed": self.config.seed,
            "train_scenes": self.config.train_scenes,
            "train_scene_seed": self.config.train_scene_seed,
            "progress": asdict(self.progress),
            "processes": self.workers.world_size,
            "device": self.device.type,
            "validation": dict(self.validation),
        }

    def _envs(self) -> EnvBatch:
        c, rank = self.config, self.workers.rank
        seed = [c.seed, rank, self.progress.update]
        envs = [
            PointGoalEnv(
                self.train_scenes,
                self.sim,
                self.policy.depth_size,
                c.episode,
                [*seed, i],
                teacher=c.teacher,
                with_map=self.policy.uses_map,
            )
            for i in range(c.num_envs)
        ]
        return EnvBatch(envs, self.policy)

    def _step(self, loss: torch.Tensor) -> None:
        self.optimizer.zero_grad()
        loss.backward()
        average_gradients(self.policy, self.workers)
        torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.config.max_grad_norm)
        self.optimizer.step()

    def run(self) -> Path | None:
        """Train until total_steps; the main process returns the final policy file. Wall and CPU time count
        everything after the apartments exist: simulators, rollouts, updates, validation, checkpoints."""
        c, workers = self.config, self.workers
        steps_per_update = c.num_envs * c.rollout_steps * workers.world_size
        total_updates = max(1, -(-c.total_steps // steps_per_update))
        began_wall, began_cpu = time.perf_counter(), time.process_time()
        batch = self._envs()
        held_out = self._validation_setup() if workers.is_main else None
        curves = Curves(self.out / "curves.csv", self.progress.update) if workers.is_main else None
        show = workers.is_main and c.progress_bar
        bar = tqdm(total=c.total_steps, initial=self.progress.env_steps, unit="step", disable=not show)
        objective = self.imitation if c.phase == "imitation" else self.ppo
        try:
            while self.progress.update < total_updates:
                row = self._update(batch, objective, total_updates)
                bar.update(row["rollout_steps"])
                last = self.progress.update == total_updates
                validated = held_out is not None and (self.progress.update % c.eval_every == 0 or last)
                if held_out is not None and validated:
                    torch.set_num_threads(1)
                    self.validation = run_validation(self.policy, *held_out)
                    row.update(self.validation)
                    bar.set_postfix(sr=row["val_success"], spl=row["val_spl"])
                (cpu,) = sum_over_workers([time.process_time() - began_cpu], workers)
                wall = time.perf_counter() - began_wall
                self.progress.wall_seconds += wall
                self.progress.cpu_seconds += cpu
                row.update(
                    wall_s=self.progress.wall_seconds,
                    cpu_s=self.progress.cpu_seconds,
                    steps_per_s=row["rollout_steps"] / wall,
                )
                if curves is not None:
                    curves.write(row)
                if validated:
                    snapshot = self.out / "checkpoints" / f"policy_{self.progress.env_steps:09d}.pth"
                    save_atomic(checkpoint_dict(self.policy, self._config_dict(), self.metadata()), snapshot)
                if workers.is_main and (self.progress.update % c.checkpoint_every == 0 or last):
                    save_resumable(
                        self.out / LATEST,
                        self.policy,
                        self.optimizer,
                        self.progress,
                        self._config_dict(),
                        self.metadata(),
                    )
                barrier(workers)
                began_wall, began_cpu = time.perf_counter(), time.process_time()
        finally:
            bar.close()
            batch.close()
            if held_out is not None:
                for env in held_out[0]:
                    env.close()
        if not workers.is_main:
            return None
        final = self.out / FINAL
        save_atomic(checkpoint_dict(self.policy, self._config_dict(), self.metadata()), final)
        return final

    def _config_dict(self) -> dict[str, Any]:
        return {"train": asdict(self.config), "sim": asdict(self.sim)}

    def _validation_setup(self) -> tuple[list[PointGoalEnv], list[list[Any]]]:
        c = self.config
        scenes = apartment_scenes(c.val_scenes, c.val_scene_seed)
        episodes = validation_episodes(scenes, c.val_episodes_per_scene, c.episode, c.val_scene_seed)
        envs = [
            PointGoalEnv(
                scenes,
                self.sim,
                self.policy.depth_size,
                c.episode,
                [c.val_scene_seed, i],
                teacher="geodesic",
                with_map=self.policy.uses_map,
            )
            for i in range(len(scenes))
        ]
        return envs, episodes

    def _update(self, batch: EnvBatch, objective: Imitation | Ppo, total_updates: int) -> dict[str, Any]:
        """One rollout and one update; the curve row's training columns (summed over processes)."""
        c = self.config
        if isinstance(objective, Imitation):
            objective.schedule(self.progress.update / total_updates)
        torch.set_num_threads(1)  # batches of a few frames: more threads only spin
        rollout = batch.collect(self.policy, c.rollout_steps, objective.chooser(), objective.reward)
        torch.set_num_threads(c.threads)
        stats = objective.update(self.policy, rollout, self._step)
        ended = rollout.ended
        steps, episodes, success_sum, spl_sum = sum_over_workers(
            [
                float(rollout.rewards.numel()),
                float(len(ended)),
                float(sum(e.success for e in ended)),
                float(sum(e.spl for e in ended)),
            ],
            self.workers,
        )
        p = self.progress
        p.update += 1
        p.env_steps += int(steps)
        p.episodes += int(episodes)
        return {
            "update": p.update,
            "env_steps": p.env_steps,
            "rollout_steps": int(steps),
            "phase": c.phase,
            **stats,
            "train_episodes": int(episodes),
            "train_success": success_sum / episodes if episodes else None,
            "train_spl": spl_sum / episodes if episodes else None,
        }
