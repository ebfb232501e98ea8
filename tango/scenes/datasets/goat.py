"""GOAT-Bench files for synthetic scenes: 5-10 subtask episodes mixing object, description and image goals.

Description goals (lang_desc) are written from the instance's attributes, room and nearby objects, are
unique among the instances of its category, and are worded from the `wording` paraphrase pool (held-out for
the evaluation split); the facts each states go to `description_facts.json` beside the split file (ours, for
evaluation code), keyed "{scene}_{object_id}" as GOAT-Bench keys its instances. Image goals are the camera of a render from one of the
instance's view points: `position` is the camera position (floor position plus camera height), with the
rotation, hfov and image_dimensions [height, width] of the render, as GOAT stores them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.goat import episode_json, image_goal_json, instance_key
from tango.formats.nav_episodes import goal_json, goals_key
from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.descriptions import unique_facts
from tango.scenes.datasets.starts import episode_start, scene_targets
from tango.scenes.datasets.viewpoints import ObjectView, footprint_distance
from tango.types.scene import SceneObject


@dataclass(frozen=True)
class GoatConfig:
    """Episode counts and lengths, the first subtask's start distance (`start_distances`: as
    ObjectNavConfig's), and the camera of image goals."""

    episodes_per_scene: int = 6
    min_subtasks: int = 5
    max_subtasks: int = 10
    min_geodesic_m: float = 1.0
    start_distances: str = ""
    image_goals_per_object: int = 2
    min_image_coverage: float = 0.02
    min_image_separation_m: float = 0.5
    min_image_distance_m: float = 0.5
    image_hfov_deg: float = 79.0
    image_size: int = 256
    camera_height_m: float = 0.88
    wording: str = "heldout"


def image_goal(view: ObjectView, config: GoatConfig, render_pixels: int) -> dict[str, Any]:
    """The camera of an image goal rendered from a view point (`camera_height_m` above it)."""
    x, y, z = view.position
    camera = (x, y + config.camera_height_m, z)
    coverage = view.pixels / render_pixels
    return image_goal_json(camera, view.rotation, config.image_hfov_deg, config.image_size, coverage)


def _image_views(
    obj: SceneObject, views: list[ObjectView], config: GoatConfig, render_pixels: int
) -> list[ObjectView]:
    """The best-IoU view points at least `min_image_distance_m` from the object (a picture with some of its
    surroundings, not a close-up of a surface) where it fills enough of the frame to make a useful goal image,
    at least `min_image_separation_m` apart (neighbouring grid view points would give the same picture)."""
    chosen: list[ObjectView] = []
    for view in views:
        if len(chosen) == config.image_goals_per_object:
            break
        x, _, z = view.position
        distance = float(footprint_distance(obj, np.array([x]), np.array([z]))[0])
        far = all(
            np.hypot(x - c.position[0], z - c.position[2]) >= config.min_image_separation_m for c in chosen
        )
        framed = view.pixels >= config.min_image_coverage * render_pixels
        if far and framed and distance >= config.min_image_distance_m:
            chosen.append(view)
    return chosen


def goat_goals(
    ctx: SceneContext, config: GoatConfig, render_pixels: int, rng: np.random.Generator
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, dict[str, Any]]]:
    """goals["{scene file}_{category}"] (every instance with view points, image goals and lang_desc) and the
    facts each lang_desc states, by instance key."""
    goals: dict[str, list[dict[str, Any]]] = {}
    facts: dict[str, dict[str, Any]] = {}
    for category in ctx.categories():
        entries = []
        for obj in ctx.goal_objects(category):
            stated = unique_facts(obj, ctx.annotations, ctx.neighbours)
            if stated is not None:
                facts[instance_key(ctx.scene_file, obj.id)] = stated.as_dict()
            images = _image_views(obj, ctx.views[obj.id], config, render_pixels)
            entries.append(
                {
                    **goal_json(obj, category, ctx.views[obj.id]),
                    "children_object_categories": [],
                    "image_goals": [image_goal(v, config, render_pixels) for v in images],
                    "lang_desc": None if stated is None else stated.text(config.wording, rng),
                }
            )
        goals[goals_key(ctx.scene_file, category)] = entries
    return goals, facts


def _subtasks(
    ctx: SceneContext, goals: dict[str, list[dict[str, Any]]], rng: np.random.Generator, count: int
) -> list[list[Any]]:
    """`count` subtasks covering every available goal type in random order, never the same instance twice in a
    row; object subtasks carry no instance id (null), as the published files: any instance of the category is a
    goal."""
    by_id = {g["object_id"]: g for entries in goals.values() for g in entries}
    pools: dict[str, list[SceneObject]] = {
        "object": ctx.goal_objects(),
        "description": [o for o in ctx.goal_objects() if by_id[o.id]["lang_desc"]],
        "image": [o for o in ctx.goal_objects() if by_id[o.id]["image_goals"]],
    }
    types = [t for t, pool in pools.items() if pool]
    sequence = types + [types[int(rng.integers(len(types)))] for _ in range(max(0, count - len(types)))]
    sequence = [sequence[int(i)] for i in rng.permutation(len(sequence))][:count]
    tasks: list[list[Any]] = []
    previous: int | None = None
    for goal_type in sequence:
        pool = [o for o in pools[goal_type] if o.id != previous] or pools[goal_type]
        obj = pool[int(rng.integers(len(pool)))]
        task: list[Any] = [obj.category, goal_type, None if goal_type == "object" else obj.id]
        if goal_type == "image":
            task.append(int(rng.integers(len(by_id[obj.id]["image_goals"]))))
        tasks.append(task)
        previous = obj.id
    return tasks


def scene_content(
    ctx: SceneContext,
    rngs: tuple[np.random.Generator, np.random.Generator],
    config: GoatConfig,
    first_id: int,
    render_pixels: int,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The content file of one scene (GOAT episodes and their goals) and its description facts; `rngs` are the
    (episode, wording) streams."""
    rng, wording_rng = rngs
    goals, facts = goat_goals(ctx, config, render_pixels, wording_rng)
    episodes: list[dict[str, Any]] = []
    num_episodes = config.episodes_per_scene if goals else 0
    targets = scene_targets(config.start_distances, num_episodes, rng)
    for index in range(num_episodes):
        count = int(rng.integers(config.min_subtasks, config.max_subtasks + 1))
        tasks = _subtasks(ctx, goals, rng, count)
        first = tasks[0]
        first_objects = (
            ctx.goal_objects(first[0]) if first[1] == "object" else [ctx.annotations.object_by_id(first[2])]
        )
        start = episode_start(ctx, first_objects, rng, targets, index, config.min_geodesic_m)
        if start is None:
            continue
        episode_id = str(first_id + len(episodes))
        episodes.append(episode_json(episode_id, ctx.scene_file, start, start.geodesic_distance, tasks))
    return {"episodes": episodes, "goals": goals}, facts
