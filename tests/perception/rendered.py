"""Rendered test material from a generated dataset: GOAT image-goal pictures and nearby agent views of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tango.formats import goat
from tango.formats.goat import GoatGoal
from tango.sim.render import Renderer
from tango.sim.scene import LoadedScene, load_scene
from tango.types.observation import Observation
from tango.types.poses import camera_pose, forward_vector, quaternion_to_yaw

STEP_M = 0.2
TURN_RAD = np.deg2rad(10.0)


@dataclass
class ImageGoalCase:
    """One object's goal picture and the agent's view of the same place from a slightly different pose."""

    object_id: int | str
    goal_rgb: np.ndarray
    view_rgb: np.ndarray


def goat_goals_by_scene(root: Path) -> dict[str, list[GoatGoal]]:
    """Every GOAT goal instance with at least one image goal, per scene file, in object-id order."""
    found: dict[str, dict[int | str, GoatGoal]] = {}
    for episode in goat.load_episodes(root / "goat" / "val"):
        for task in episode.tasks:
            for goal in task.goals:
                if goal.image_goals:
                    found.setdefault(episode.scene_id, {})[goal.object_id] = goal
    return {scene: [goals[k] for k in sorted(goals, key=str)] for scene, goals in sorted(found.items())}


def load_dataset_scene(root: Path, scene_file: str) -> LoadedScene:
    """The scene named by an episode's scene_id."""
    return load_scene(root / "scenes" / Path(scene_file).name, require_annotations=True)


def distinct_goals(goals: list[GoatGoal], count: int, min_separation_m: float) -> list[GoatGoal]:
    """Up to `count` goals whose first goal cameras stand at least `min_separation_m` apart (distinct places)."""
    chosen: list[GoatGoal] = []
    for goal in goals:
        position = np.asarray(goal.image_goals[0].position)
        if all(
            np.linalg.norm(position - np.asarray(c.image_goals[0].position)) >= min_separation_m
            for c in chosen
        ):
            chosen.append(goal)
        if len(chosen) == count:
            break
    return chosen


def image_goal_cases(scene: LoadedScene, goals: list[GoatGoal]) -> list[ImageGoalCase]:
    """For each goal: its first goal picture, and the view after stepping 0.2 m towards it and turning 10 degrees."""
    first = goals[0].image_goals[0]
    renderer = Renderer(scene.mesh, width=first.image_dimensions[1], height=first.image_dimensions[0],
                        hfov_deg=first.hfov)  # fmt: skip
    cases = []
    for goal in goals:
        camera = goal.image_goals[0]
        position = np.asarray(camera.position, dtype=np.float64)
        yaw = quaternion_to_yaw(np.asarray(camera.rotation))
        goal_rgb = renderer.render(camera_pose(position, yaw)).rgb
        view_rgb = renderer.render(camera_pose(position + STEP_M * forward_vector(yaw), yaw + TURN_RAD)).rgb
        assert goal_rgb is not None and view_rgb is not None
        cases.append(ImageGoalCase(goal.object_id, goal_rgb, view_rgb))
    return cases


def view_point_observations(
    scene: LoadedScene, goals: list[GoatGoal], camera_height_m: float, per_goal: int
) -> list[Observation]:
    """Observations (rgb, depth, semantic, pose) from `per_goal` view points of each goal, spread through its
    list (best iou first; neighbouring grid view points would show the same picture)."""
    renderer = Renderer(scene.mesh, width=128, height=128, hfov_deg=79.0)
    observations: list[Observation] = []
    for goal in goals:
        stride = max(1, len(goal.view_points) // per_goal)
        for view_point in goal.view_points[::stride][:per_goal]:
            position = np.asarray(view_point.agent_state.position, dtype=np.float64)
            yaw = quaternion_to_yaw(np.asarray(view_point.agent_state.rotation))
            pose = camera_pose(position, yaw, height=camera_height_m)
            frame = renderer.render(pose)
            observations.append(
                Observation(frame.rgb, frame.depth, pose, 79.0, position, yaw, frame.semantic)  # type: ignore[arg-type]
            )
    return observations
