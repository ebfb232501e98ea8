"""The ground truth the failure analysis reads after a run (evaluation only; the agent never imports this):
each (sub)task's goal instances from the benchmark's own episode file, their boxes from the scene annotation,
and whether an instance was in view at a pose the trace recorded.

"In view" is exact: the instance's pixels in an instance-id render of the recorded camera (position, yaw,
pitch, the run's hfov and camera height), at a frame of at most 160 pixels across, must cover at least the
fraction of the frame the run's detector needs (`perception.detector.min_pixels` of the run's frame).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.goat import GoatEpisode
from tango.formats.nav_episodes import NavEpisode, resolve_scene_path
from tango.formats.openeqa import EQAQuestion
from tango.harness.episode import load_plugin
from tango.scenes.datasets.visibility import VisibilityRenderer
from tango.sim.scene import load_scene
from tango.tasks.flow import dataset_paths
from tango.tasks.habitat.plugin import HabitatTask, task_config
from tango.types.poses import camera_pose
from tango.types.scene import SceneAnnotations, SceneObject

MAX_RENDER_SIDE = 160
DEFAULT_MIN_PIXELS = 100


@dataclass(frozen=True)
class GoalSet:
    """What satisfies one (sub)task: instance ids and centres (navigation), or the objects an answer rests
    on (`evidence`, OpenEQA: every one must be seen); `goal_type` for GOAT."""

    object_ids: tuple[Any, ...]
    centres: tuple[tuple[float, float, float], ...] = ()
    evidence: bool = False
    goal_type: str | None = None


def goal_sets(payload: Any) -> list[GoalSet]:
    """The goals of an episode's (sub)tasks, in order, from the loaded benchmark episode."""
    if isinstance(payload, GoatEpisode):
        found = []
        for subtask in payload.tasks:
            goals = subtask.goals if subtask.target is None else (subtask.target,)
            ids = tuple(g.object_id for g in goals)
            found.append(GoalSet(ids, tuple(g.position for g in goals), goal_type=subtask.goal_type))
        return found
    if isinstance(payload, NavEpisode):
        return [GoalSet(tuple(g.object_id for g in payload.goals), tuple(g.position for g in payload.goals))]
    if isinstance(payload, EQAQuestion):
        return [GoalSet(tuple(payload.evidence), evidence=True)] if payload.evidence else []
    return []


class RunGroundTruth:
    """The episodes of a finished Habitat run, looked up by id, and their scenes (loaded once each)."""

    def __init__(self, configs: dict[str, Any]) -> None:
        task = configs["task"]
        plugin = load_plugin(task.get("plugin"), str(task.get("name")))
        if not isinstance(plugin, HabitatTask):
            raise TypeError(f"task {task.get('name')!r} is not a Habitat benchmark")
        specs = plugin.list_episodes(configs)
        flow = plugin.flow(task_config(configs, plugin.flow.schema))
        self.scenes_dir = dataset_paths(flow.task, flow.data_file)[1]
        self.episodes = {spec.episode_id: spec for spec in specs}
        sim = configs.get("sim") or {}
        detector = (configs.get("perception") or {}).get("detector") or {}
        width, height = int(sim.get("width", 256)), int(sim.get("height", 256))
        scale = min(1.0, MAX_RENDER_SIDE / max(width, height))
        self.frame = (max(1, round(width * scale)), max(1, round(height * scale)))
        fraction = int(detector.get("min_pixels") or DEFAULT_MIN_PIXELS) / (width * height)
        self.min_pixels = max(1, round(fraction * self.frame[0] * self.frame[1]))
        self.hfov = float(sim.get("hfov", 79.0))
        self.camera_height = float(sim.get("camera_height", 0.88))
        self._scenes: dict[str, SceneView | None] = {}

    def goals(self, episode_id: str) -> list[GoalSet]:
        spec = self.episodes.get(episode_id)
        return [] if spec is None else goal_sets(spec.payload)

    def scene(self, episode_id: str) -> SceneView | None:
        """The episode's scene with its annotation; None when the episode or the annotation is unknown."""
        spec = self.episodes.get(episode_id)
        if spec is None:
            return None
        if spec.scene_id not in self._scenes:
            loaded = load_scene(resolve_scene_path(spec.scene_id, self.scenes_dir))
            self._scenes[spec.scene_id] = (
                None if loaded.annotations is None else SceneView(loaded.mesh, loaded.annotations, self)
            )
        return self._scenes[spec.scene_id]

    def close(self) -> None:
        for view in self._scenes.values():
            if view is not None:
                view.release()


class SceneView:
    """One annotated scene: instance boxes, and visibility of an instance from recorded poses."""

    def __init__(self, mesh: Any, annotations: SceneAnnotations, run: RunGroundTruth) -> None:
        self.annotations = annotations
        self.run = run
        floor = annotations.floor_y if annotations.floor_y is not None else 0.0
        self._renderer = VisibilityRenderer(mesh, *run.frame, run.hfov, floor)

    def instance(self, object_id: Any) -> SceneObject | None:
        try:
            return self.annotations.object_by_id(int(object_id))
        except (KeyError, TypeError, ValueError):
            return None

    def seen_from(self, object_id: Any, poses: Sequence[Sequence[float]]) -> int | None:
        """The index of the first pose from which the instance covers enough pixels, else None."""
        obj = self.instance(object_id)
        if obj is None or not poses:
            return None
        cameras = [
            camera_pose(np.asarray(p[:3]), p[3], p[4] if len(p) > 4 else 0.0, self.run.camera_height)
            for p in poses
        ]
        with (
            self._renderer.ctx
        ):  # current on this thread, whatever GL context (e.g. a simulator's) was before
            for index, mask in enumerate(self._renderer.masks(obj, cameras)):
                if int(mask.sum()) >= self.run.min_pixels:
                    return index
        return None

    def release(self) -> None:
        self._renderer.release()


def distance_to_instance(point: Sequence[float], obj: SceneObject) -> float:
    """Euclidean distance (metres) from a point to an instance's bounding box (0 inside it)."""
    p = np.asarray(point, dtype=np.float64)
    low, high = np.asarray(obj.bbox_min), np.asarray(obj.bbox_max)
    return float(np.linalg.norm(np.maximum(np.maximum(low - p, p - high), 0.0)))


def goal_distance(point: Sequence[float], goals: GoalSet, scene: SceneView | None) -> float:
    """Distance from a point to the nearest goal instance: to its box when the scene is annotated, else to
    its centre from the episode file."""
    distances = []
    for index, object_id in enumerate(goals.object_ids):
        obj = None if scene is None else scene.instance(object_id)
        if obj is not None:
            distances.append(distance_to_instance(point, obj))
        elif index < len(goals.centres):
            distances.append(float(np.linalg.norm(np.asarray(point) - np.asarray(goals.centres[index]))))
    return min(distances, default=float("inf"))
