"""habitat-lab PointNav-v1 episodes for synthetic scenes, sampled by habitat-lab's generator rules.

habitat-lab's `generate_pointnav_episode`: a navigable goal, up to 10 navigable starts tried for it, kept when
the geodesic distance is within [closest, furthest] metres; near-straight episodes (geodesic / Euclidean
below 1.1) are kept only with probability 20 (ratio - 0.98)^2. The same sampler draws the training episodes of
`python -m tango.navigation.train`, on other apartments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.pointnav import episode_json
from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.viewpoints import yaw_quaternion
from tango.sim.navgrid import NavGrid

RETRIES_PER_GOAL = 10
SUCCESS_DISTANCE = 0.2


@dataclass(frozen=True)
class PointNavConfig:
    """Episodes per scene and habitat-lab's distance and straightness rules (metres)."""

    episodes_per_scene: int = 10
    closest_distance: float = 1.0
    furthest_distance: float = 30.0
    geodesic_to_euclid_min_ratio: float = 1.1
    max_goal_attempts: int = 200


@dataclass(frozen=True)
class PointGoal:
    """A sampled episode: start pose (yaw in radians), goal and their geodesic distance."""

    start: np.ndarray
    yaw: float
    goal: np.ndarray
    geodesic_distance: float


def straight_episode_kept(ratio: float, threshold: float, rng: np.random.Generator) -> bool:
    """habitat-lab's rejection of near-straight episodes: below the threshold, keep with 20 (ratio - 0.98)^2."""
    return ratio >= threshold or rng.random() <= 20.0 * (ratio - 0.98) ** 2


def sample_point_goal(grid: NavGrid, rng: np.random.Generator, config: PointNavConfig) -> PointGoal | None:
    """One episode by habitat-lab's rules on the grid's navigable cells; None when none is found."""
    for _ in range(config.max_goal_attempts):
        goal = grid.snap(grid.sample_navigable_point(rng))
        for _ in range(RETRIES_PER_GOAL):
            start = grid.snap(grid.sample_navigable_point(rng))
            distance = grid.geodesic_distance(start, [goal])
            if not np.isfinite(distance) or not (
                config.closest_distance <= distance <= config.furthest_distance
            ):
                continue
            euclid = float(np.linalg.norm(start - goal))
            if straight_episode_kept(distance / euclid, config.geodesic_to_euclid_min_ratio, rng):
                return PointGoal(start, float(rng.uniform(0.0, 2.0 * np.pi)), goal, float(distance))
    return None


def point_goal_episode(episode: PointGoal, scene_file: str, episode_id: str) -> dict[str, Any]:
    """A PointNav-v1 episode record of a sampled episode."""
    rotation = yaw_quaternion(episode.yaw)
    return episode_json(
        episode_id,
        scene_file,
        episode.start,
        rotation,
        episode.goal,
        episode.geodesic_distance,
        SUCCESS_DISTANCE,
    )


def scene_content(
    ctx: SceneContext, rng: np.random.Generator, config: PointNavConfig, first_id: int
) -> dict[str, Any]:
    """The content file of one scene: `episodes_per_scene` point-goal episodes."""
    episodes: list[dict[str, Any]] = []
    for _ in range(config.episodes_per_scene):
        episode = sample_point_goal(ctx.grid, rng, config)
        if episode is not None:
            episodes.append(point_goal_episode(episode, ctx.scene_file, str(first_id + len(episodes))))
    return {"episodes": episodes}
