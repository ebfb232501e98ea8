"""PointNav (habitat-lab PointNav-v1): the task that scores the point-goal controller.

habitat-lab's PointNav rules apply: the agent knows the goal in its own frame (GPS + compass) and sees depth;
success is calling stop within 0.2 m (geodesic) of the goal, SPL weighs success by shortest / walked path
length, 500 steps at most. No program is written: `agent.navigation.controller` (fmm or pointnav) drives to
the goal and stops within `agent.navigation.point_goal_tolerance`, so the task measures the controller itself.
The episodes are read by tango.formats.pointnav; the controller loop is tango.tasks.habitat.pointnav_runner's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tango.formats.fields import Loaded
from tango.formats.pointnav import PointNavEpisode, read_episodes
from tango.harness.episode import EpisodeSpec
from tango.harness.registry import register_task
from tango.tasks.flow import HabitatFlow, HabitatTaskConfig, dataset_paths
from tango.tasks.habitat.plugin import HabitatTask, task_config

if TYPE_CHECKING:
    from tango.tasks.habitat.pointnav_runner import PointNavRunner


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
        return PointNavRunner(cfg, task, dataset_paths(task, self.flow.data_file)[1])


register_task("pointnav", PointNavTaskConfig)
