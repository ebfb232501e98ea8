"""HM3D-OVON files for synthetic scenes: every annotated category is an open-vocabulary goal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.records import goal_json, object_goal_episode
from tango.tasks.episodes import goals_key

SPLIT = "val_unseen"


@dataclass(frozen=True)
class OVONConfig:
    """How many episodes per scene and how far their starts are from the goals."""

    episodes_per_scene: int = 8
    min_geodesic_m: float = 1.0


def split_header() -> dict[str, Any]:
    """The split file: no episodes (they live in content/)."""
    return {"episodes": []}


def scene_content(
    ctx: SceneContext, rng: np.random.Generator, config: OVONConfig, first_id: int
) -> dict[str, Any]:
    """The content file of one scene: episodes over random categories and goals_by_category for all of them."""
    categories = ctx.categories()
    goals_by_category = {
        goals_key(ctx.scene_file, c): [
            {**goal_json(ctx, o, c), "children_object_categories": []} for o in ctx.goal_objects(c)
        ]
        for c in categories
    }
    episodes: list[dict[str, Any]] = []
    order = [categories[int(i)] for i in rng.permutation(len(categories))]
    for index in range(config.episodes_per_scene if categories else 0):
        category = order[index % len(order)]
        objects = ctx.goal_objects(category)
        start = ctx.sample_start(objects, rng, config.min_geodesic_m)
        if start is None:
            continue
        episodes.append(object_goal_episode(ctx, start, category, objects, str(first_id + len(episodes))))
    return {"episodes": episodes, "goals_by_category": goals_by_category}
