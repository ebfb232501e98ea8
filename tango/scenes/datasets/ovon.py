"""HM3D-OVON files for synthetic scenes: every annotated category is a goal; with `open_fraction` > 0 an
episode names it in words that are not its annotation label (`vocabulary.OPEN_NAMES`: synonyms, more specific
names), as HM3D-OVON's own splits do, and goals_by_category holds the instances under that name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.nav_episodes import goal_json, goals_key, object_goal_episode_json
from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.starts import episode_start, scene_targets
from tango.scenes.datasets.vocabulary import goal_name


@dataclass(frozen=True)
class OVONConfig:
    """How many episodes per scene, how far their starts are from the goals (`start_distances`: as
    ObjectNavConfig's) and the share of episodes whose goal is named by an open-vocabulary name."""

    episodes_per_scene: int = 8
    min_geodesic_m: float = 1.0
    start_distances: str = ""
    open_fraction: float = 0.0


def scene_content(
    ctx: SceneContext, rng: np.random.Generator, config: OVONConfig, first_id: int
) -> dict[str, Any]:
    """The content file of one scene: episodes over random categories and goals_by_category for every name
    used (the label of each category, plus the open names its episodes use)."""
    categories = ctx.categories()
    goals_by_category = {goals_key(ctx.scene_file, c): _goals(ctx, c, c) for c in categories}
    episodes: list[dict[str, Any]] = []
    order = [categories[int(i)] for i in rng.permutation(len(categories))]
    count = config.episodes_per_scene if categories else 0
    targets = scene_targets(config.start_distances, count, rng)
    for index in range(count):
        category = order[index % len(order)]
        objects = ctx.goal_objects(category)
        start = episode_start(ctx, objects, rng, targets, index, config.min_geodesic_m)
        if start is None:
            continue
        name = goal_name(category, config.open_fraction, rng) if config.open_fraction > 0 else category
        goals_by_category.setdefault(goals_key(ctx.scene_file, name), _goals(ctx, category, name))
        closest = ctx.closest_object(np.asarray(start.position), objects).id
        episode_id = str(first_id + len(episodes))
        episodes.append(object_goal_episode_json(ctx.scene_file, start, name, closest, episode_id))
    return {"episodes": episodes, "goals_by_category": goals_by_category}


def _goals(ctx: SceneContext, category: str, name: str) -> list[dict[str, Any]]:
    """The goals of every instance of annotation `category`, named `name`."""
    return [
        {**goal_json(o, name, ctx.views[o.id]), "children_object_categories": []}
        for o in ctx.goal_objects(category)
    ]
