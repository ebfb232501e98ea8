"""PointNav (habitat-lab PointNav-v1): episode loading, and the task that scores the point-goal controller.

A PointNav-v1 split is `{split}.json.gz` plus `content/{scene}.json.gz`; each episode has start_position,
start_rotation, goals[0].position and info.geodesic_distance. habitat-lab's PointNav rules apply: the agent
knows the goal in its own frame (GPS + compass) and sees depth; success is calling stop within 0.2 m
(geodesic) of the goal, SPL weighs success by shortest / walked path length, 500 steps at most. No program is
written: `agent.navigation.controller` (fmm or pointnav) drives to the goal and stops within
`agent.navigation.point_goal_tolerance`, so the task measures the controller itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tango.harness.episode import EpisodeSpec
from tango.harness.registry import register_task
from tango.tasks.episodes import split_sources
from tango.tasks.fields import FieldError, Loaded, Quat, Vec3, parse_each, quat, require, short, text, vec3
from tango.tasks.flow import HabitatFlow, HabitatTaskConfig
from tango.tasks.habitat_runner import HabitatTask, task_config

if TYPE_CHECKING:
    from tango.tasks.habitat.pointnav_runner import PointNavRunner


@dataclass(frozen=True)
class PointNavEpisode:
    """One PointNav-v1 episode."""

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    goal_position: Vec3
    geodesic_distance: float | None
    source_file: str = ""


def _episode(raw: Any, index: int, *, file: Path) -> PointNavEpisode:
    goals = require(raw, "goals")
    if not isinstance(goals, list) or not goals:
        raise FieldError("goals", f"must be a non-empty list of goals, got {short(goals)}")
    info = raw.get("info") or {}
    if not isinstance(info, dict):
        raise FieldError("info", f"must be a JSON object, got {short(info)}")
    distance = info.get("geodesic_distance")
    if distance is not None and (isinstance(distance, bool) or not isinstance(distance, (int, float))):
        raise FieldError("info.geodesic_distance", f"must be a number, got {short(distance)}")
    return PointNavEpisode(
        episode_id=str(require(raw, "episode_id")),
        scene_id=text(require(raw, "scene_id"), "scene_id"),
        start_position=vec3(require(raw, "start_position"), "start_position"),
        start_rotation=quat(require(raw, "start_rotation"), "start_rotation"),
        goal_position=vec3(require(goals[0], "position", "goals[0]"), "goals[0].position"),
        geodesic_distance=None if distance is None else float(distance),
        source_file=str(file),
    )


def read_episodes(path: str | os.PathLike[str]) -> Loaded[PointNavEpisode]:
    """Episodes of one PointNav-v1 split (the split file or its directory), with per-episode problems."""
    _, _, sources = split_sources(path)
    loaded: Loaded[PointNavEpisode] = Loaded([])
    for file, data in sources:
        part = parse_each(file, data["episodes"], partial(_episode, file=file))
        loaded.episodes.extend(part.episodes)
        loaded.problems.extend(part.problems)
    return loaded


def load_episodes(path: str | os.PathLike[str]) -> list[PointNavEpisode]:
    """Episodes of one PointNav-v1 split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


@dataclass
class PointNavTaskConfig(HabitatTaskConfig):
    """configs/task/pointnav.yaml: habitat-lab's pointnav.yaml rules (success 0.2 m, 500 steps)."""

    name: str = "pointnav"
    plugin: str = "tango.tasks.pointnav:PointNavTask"
    split: str = "val"
    max_steps: int = 500
    success_distance: float = 0.2


def point_goal_instruction(episode: PointNavEpisode) -> str:
    """What the record shows as the instruction (the agent itself receives the goal point, not text)."""
    x, _, z = episode.goal_position
    return f"Go to the point goal (x={x:.2f}, z={z:.2f})."


class PointNavFlow(HabitatFlow):
    """Reads PointNav-v1 episodes; the controller loop is PointNavRunner's."""

    schema = PointNavTaskConfig
    data_file = "pointnav/{split}/{split}.json.gz"

    def read(self, path: Path) -> Loaded[PointNavEpisode]:
        return read_episodes(path)

    def spec(self, episode: PointNavEpisode) -> EpisodeSpec:
        return EpisodeSpec(episode.episode_id, episode.scene_id, point_goal_instruction(episode), episode)


class PointNavTask(HabitatTask):
    """The PointNav harness plugin: episodes as the Habitat tasks list them, a controller-only runner."""

    flow = PointNavFlow

    def make_runner(self, cfg: dict[str, Any]) -> PointNavRunner:  # type: ignore[override]
        from tango.tasks.habitat.pointnav_runner import PointNavRunner

        task = task_config(cfg, PointNavTaskConfig)
        assert isinstance(task, PointNavTaskConfig)
        return PointNavRunner(cfg, task)


register_task("pointnav", PointNavTaskConfig)
