"""HM3D ObjectNav (habitat-lab ObjectNav-v1, and HM3D's v2 files of the same shape): episode loading and the
episode flow.

`read_episodes` reads `{split}.json.gz` and its `content/{scene}.json.gz` files, filling each episode's goals
from goals_by_category (FORMATS.md), and returns the good episodes with a named problem per malformed one;
`load_episodes` refuses the whole split at the first malformed episode. The flow tells the agent "Find a
<category>." and scores its first stop.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.tasks.episodes import NavEpisode, read_nav_episodes
from tango.tasks.fields import Loaded
from tango.tasks.flow import EpisodeRun, HabitatFlow, NavTaskConfig, episode_result, goal_points
from tango.tasks.habitat_runner import HabitatTask

ObjectNavEpisode = NavEpisode


def read_episodes(path: str | os.PathLike[str]) -> Loaded[ObjectNavEpisode]:
    """Episodes of one ObjectNav split (the split file or its directory), with per-episode problems."""
    return read_nav_episodes(path)


def load_episodes(path: str | os.PathLike[str]) -> list[ObjectNavEpisode]:
    """Episodes of one ObjectNav split; a malformed episode refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


# --- the ObjectNav flow -----------------------------------------------------------------------------------------


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
