"""HM3D ObjectNav's episode flow: the agent is told "Find a <category>." and scored at its first stop.

The episodes are read by tango.formats.objectnav (ObjectNav-v1 files).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from tango.formats.fields import Loaded
from tango.formats.nav_episodes import NavEpisode
from tango.formats.objectnav import read_episodes
from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.tasks.flow import EpisodeRun, HabitatFlow, NavTaskConfig, episode_result, goal_points
from tango.tasks.habitat.plugin import HabitatTask


@dataclass
class ObjectNavTaskConfig(NavTaskConfig):
    """configs/task/objectnav.yaml."""

    name: str = "objectnav"
    plugin: str = "tango.tasks.objectnav:ObjectNavTask"
    split: str = "val"


def object_instruction(category: str, article: str = "a") -> str:
    """What an object-goal benchmark tells the agent: the category name, nothing else."""
    return f"Find {article} {category}."


class ObjectGoalFlow(HabitatFlow):
    """Find an object by category: one program, scored at its first stop against every goal instance of the
    category (and of its children categories, for OVON)."""

    schema: ClassVar[type[NavTaskConfig]] = ObjectNavTaskConfig
    data_file = "objectnav/{split}/{split}.json.gz"
    task: NavTaskConfig

    def read(self, path: Path) -> Loaded[NavEpisode]:
        return read_episodes(path)

    def spec(self, episode: NavEpisode) -> EpisodeSpec:
        instruction = object_instruction(episode.object_category)
        return EpisodeSpec(str(episode.episode_id), episode.scene_id, instruction, episode)

    def run(self, spec: EpisodeSpec, run: EpisodeRun) -> EpisodeResult:
        episode: NavEpisode = spec.payload
        run.start(episode.scene_id, episode.start_position, episode.start_rotation)
        goals = goal_points(episode.goals, self.task.distance_to)
        start_distance = run.geodesic_distance(episode.start_position, goals)
        record = run.program(spec.instruction)
        result = run.execute(record, stop_when_done=True)
        metrics = run.score_stop(goals, start_distance, 0.0, self.task)
        run.finish([goal.position for goal in episode.goals])
        return episode_result(spec.instruction, record, [result], metrics, run.steps)


class ObjectNavTask(HabitatTask):
    """The ObjectNav harness plugin."""

    flow = ObjectGoalFlow


register_task("objectnav", ObjectNavTaskConfig)
