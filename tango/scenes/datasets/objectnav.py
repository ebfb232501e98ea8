"""HM3D ObjectNav-v1 files for synthetic scenes: the six HM3D goal categories, episodes with reachable goals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.nav_episodes import goal_json, goals_key, object_goal_episode_json
from tango.scenes.apartment import ApartmentConfig
from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.starts import episode_start, scene_targets

# HM3D ObjectNav goal categories (task ids in HM3D's order) and the apartment categories that count as each.
HM3D_CATEGORIES = {
    "chair": "chair",
    "bed": "bed",
    "plant": "plant",
    "toilet": "toilet",
    "tv_monitor": "tv",
    "sofa": "couch",
}
CATEGORY_TO_TASK_ID = {name: index for index, name in enumerate(HM3D_CATEGORIES)}
GOAL_CATEGORIES = frozenset(HM3D_CATEGORIES.values())
"""The apartment categories ObjectNav's episodes need view points of (its own homes find no others)."""


@dataclass(frozen=True)
class ObjectNavConfig:
    """How many episodes per scene and how far their starts are from the goals: `start_distances` names the
    reference distribution the start distances follow (tango.scenes.datasets.starts), "" for uniformly random
    starts at least `min_geodesic_m` away; with a reference, starts whose geodesic / Euclidean distance to the
    goals is below `geodesic_to_euclid_min_ratio` are rejected as HM3D's generator rejects them (0: none).
    With `homes`, the episodes come from homes of ObjectNav's own (that apartment configuration, `val_homes` and
    `test_homes` of them, from seeds no other scene uses) instead of the scenes the other benchmarks share."""

    episodes_per_scene: int = 8
    min_geodesic_m: float = 1.0
    start_distances: str = ""
    geodesic_to_euclid_min_ratio: float = 0.0
    homes: ApartmentConfig | None = None
    val_homes: int = 0
    test_homes: int = 0


def split_header() -> dict[str, Any]:
    """The split file `{split}.json.gz`: category tables and no episodes (they live in content/)."""
    return {
        "episodes": [],
        "category_to_task_category_id": CATEGORY_TO_TASK_ID,
        "category_to_mp3d_category_id": CATEGORY_TO_TASK_ID,
    }


def scene_content(
    ctx: SceneContext, rng: np.random.Generator, config: ObjectNavConfig, first_id: int
) -> dict[str, Any]:
    """The content file of one scene: episodes over the HM3D categories present, and goals_by_category."""
    present = [task for task, ours in HM3D_CATEGORIES.items() if ctx.goal_objects(ours)]
    goals_by_category = {
        goals_key(ctx.scene_file, task): [
            goal_json(o, task, ctx.views[o.id]) for o in ctx.goal_objects(HM3D_CATEGORIES[task])
        ]
        for task in present
    }
    episodes: list[dict[str, Any]] = []
    count = config.episodes_per_scene if present else 0
    targets = scene_targets(config.start_distances, count, rng)
    for index in range(count):
        task = present[index % len(present)]
        objects = ctx.goal_objects(HM3D_CATEGORIES[task])
        start = episode_start(
            ctx, objects, rng, targets, index, config.min_geodesic_m, config.geodesic_to_euclid_min_ratio
        )
        if start is None:
            continue
        closest = ctx.closest_object(np.asarray(start.position), objects).id
        episode_id = str(first_id + len(episodes))
        episodes.append(object_goal_episode_json(ctx.scene_file, start, task, closest, episode_id))
    return {**split_header(), "episodes": episodes, "goals_by_category": goals_by_category}
