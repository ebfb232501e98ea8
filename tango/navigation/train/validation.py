"""Validation during training: fixed point-goal episodes on held-out apartments, driven by the greedy policy
with the controller's stop rule, scored by habitat-lab's success (0.2 m) and SPL. As in training, an episode
also ends after `patience` steps without progress (cheap on a poor policy; the benchmark, task=pointnav, has
only habitat-lab's 500-step limit)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.train.config import EpisodeSettings
from tango.navigation.train.env import EpisodeEnd, PointGoalEnv
from tango.navigation.train.rollouts import observation_tensors, policy_device
from tango.scenes.datasets.pointnav import PointGoal, PointNavConfig, sample_point_goal
from tango.sim.navgrid import NavGrid
from tango.sim.scene import load_scene


def validation_episodes(
    scenes: list[Path], per_scene: int, settings: EpisodeSettings, seed: int
) -> list[list[tuple[Path, PointGoal]]]:
    """`per_scene` episodes for each scene, sampled once with habitat-lab's rules (one list per scene)."""
    sampling = PointNavConfig(
        closest_distance=settings.closest_distance, furthest_distance=settings.furthest_distance
    )
    lists = []
    for index, scene_path in enumerate(scenes):
        scene = load_scene(scene_path)
        floor = scene.annotations.floor_y if scene.annotations is not None else None
        grid = NavGrid.from_scene(scene.mesh, floor_y=floor)
        rng = np.random.default_rng([seed, index])
        episodes = [sample_point_goal(grid, rng, sampling) for _ in range(per_scene)]
        lists.append([(scene_path, e) for e in episodes if e is not None])
    return lists


def run_validation(
    policy: RecurrentPointNavPolicy, envs: list[PointGoalEnv], episodes: list[list[tuple[Path, PointGoal]]]
) -> dict[str, float]:
    """Every episode once, the environments stepped together; mean success and SPL, and the count."""
    for env, own in zip(envs, episodes, strict=True):
        env.set_episodes(own)
    active = [bool(own) for own in episodes]
    observations = [env.reset() if own else None for env, own in zip(envs, episodes)]
    placeholder = next(o for o in observations if o is not None)
    device = policy_device(policy)
    hidden = policy.initial_state(len(envs)).to(device)
    prev_actions = torch.zeros(len(envs), 1, dtype=torch.long, device=device)
    masks = torch.zeros(len(envs), 1, dtype=torch.bool, device=device)
    ended: list[EpisodeEnd] = []
    policy.eval()
    while any(active):
        depth, goal, _, maps = observation_tensors([o or placeholder for o in observations], device)
        actions, hidden = policy.act(depth, goal, hidden, prev_actions, masks, maps)
        chosen = actions.flatten().tolist()
        for i, env in enumerate(envs):
            if not active[i]:
                continue
            transition = env.step(int(chosen[i]))
            observations[i] = transition.observation
            masks[i] = not transition.done
            if transition.ended is not None:
                ended.append(transition.ended)
                active[i] = not env.exhausted
        prev_actions = actions
    policy.train()
    count = len(ended)
    return {
        "val_episodes": count,
        "val_success": float(np.mean([e.success for e in ended])) if count else 0.0,
        "val_spl": float(np.mean([e.spl for e in ended])) if count else 0.0,
    }
