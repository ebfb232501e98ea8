"""The harness plugin of the Habitat benchmarks: one `HabitatTask` subclass per benchmark names its flow.

Two layers with two jobs: this plugin lists and names episodes in the main process, and
tango.tasks.habitat.runner runs them in each worker. `list_episodes` and `failure_metrics` need only the flow
(light imports: this runs in the main process and when configs are registered); `make_runner` builds the
shared simulator runner once per worker process, which is why that import happens there. An episode the loader could not read
(task.strict=false) is listed as a `MalformedEpisode` that fails at once with the loader's message, which
names the file, the episode and the field; task.strict=true refuses the file at start.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tango.config_utils import dataclass_from_dict
from tango.formats.fields import EpisodeError
from tango.habitat_compat import habitat_sim_available
from tango.harness.config import ConfigError
from tango.harness.episode import EpisodeSpec
from tango.harness.scoring import BaseTask
from tango.tasks.flow import HabitatFlow, HabitatTaskConfig, MalformedEpisode, dataset_paths
from tango.tasks.measures import scoring_rules

if TYPE_CHECKING:
    from tango.tasks.habitat.runner import HabitatRunner


def task_config(cfg: dict[str, Any], schema: type[HabitatTaskConfig]) -> HabitatTaskConfig:
    """The `task` section of the resolved config as the flow's schema (unknown keys are an error)."""
    return dataclass_from_dict(schema, cfg["task"], "task", ConfigError)


def check_simulator(cfg: dict[str, Any]) -> None:
    """Refuse at start a run that asks for habitat-sim where it is not installed (every episode would fail)."""
    backend = (cfg.get("sim") or {}).get("backend")
    if backend == "habitat" and not habitat_sim_available():
        raise ConfigError(
            "sim=habitat needs habitat-sim, which is not installed here: install it with conda "
            "(conda install habitat-sim -c conda-forge -c aihabitat; README, 'Real HM3D with habitat-sim') "
            "or use the embedded simulator (sim=embedded)"
        )


def malformed_spec(task: str, problem: EpisodeError) -> EpisodeSpec:
    """A harness episode that fails at once with the loader's problem (the run records it and goes on); it
    keeps the record's own id and scene when they are readable, and for GOAT the goal types of its subtasks,
    so that it counts as failing each of them."""
    episode_id = problem.record_field("question_id" if task == "openeqa" else "episode_id")
    raw_tasks = problem.record.get("tasks") if isinstance(problem.record, dict) else None
    types = tuple(
        t[1]
        for t in raw_tasks or ()
        if isinstance(t, list) and len(t) > 1 and t[1] in ("object", "description", "image")
    )
    return EpisodeSpec(
        episode_id if episode_id is not None else f"{Path(problem.path).name}#{problem.index}",
        problem.record_field("scene_id") or "",
        "",
        MalformedEpisode(task, problem),
        types if task == "goat" else (),
    )


def unique_ids(specs: list[EpisodeSpec]) -> list[EpisodeSpec]:
    """Prefix ids with the scene when the file reuses ids across scenes (HM3D restarts them per scene)."""
    counts = Counter(spec.episode_id for spec in specs)
    if all(n == 1 for n in counts.values()):
        return specs
    return [
        EpisodeSpec(
            f"{Path(s.scene_id).name}:{s.episode_id}",
            s.scene_id,
            s.instruction,
            s.payload,
            s.subtask_goal_types,
        )
        for s in specs
    ]


class HabitatTask(BaseTask):
    """TaskPlugin of one Habitat benchmark; subclasses set `flow`."""

    flow: ClassVar[type[HabitatFlow]] = HabitatFlow

    def __init__(self) -> None:
        self._flow: HabitatFlow | None = None

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        check_simulator(cfg)
        flow = self.flow(task_config(cfg, self.flow.schema))
        self._flow = flow
        data, _ = dataset_paths(flow.task, flow.data_file)
        loaded = flow.read(data)
        episodes = loaded.strict() if flow.task.strict else loaded.episodes
        specs = [flow.spec(episode) for episode in episodes]
        return unique_ids(specs + [malformed_spec(flow.task.name, p) for p in loaded.problems])

    def make_runner(self, cfg: dict[str, Any]) -> HabitatRunner:
        from tango.tasks.habitat.runner import HabitatRunner

        return HabitatRunner(cfg, self.flow(task_config(cfg, self.flow.schema)))

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        flow = self._flow or self.flow(self.flow.schema())
        return flow.failure_metrics(spec)

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """The benchmark's success radius, distance definition and their source (tango.tasks.measures)."""
        return scoring_rules(task_cfg)
