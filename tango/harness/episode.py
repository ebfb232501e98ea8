"""The interface between the evaluation harness and a benchmark: what a task plugs in to be evaluated.

A task is a `TaskPlugin` named by a dotted path in its config (`task.plugin: "package.module:attribute"`).
The harness asks the plugin for the episode list (`list_episodes`, deterministic), builds one
`EpisodeRunner` per process (`make_runner`, once: environment and models are loaded there), and calls
`runner.run(spec, ctx)` for each episode. The runner returns an `EpisodeResult`; an exception it raises is
recorded by the harness as a failed episode with its reason, and the run continues. How results are judged
(scoring rules, subtask pooling, the outcome of a case) are methods of the plugin too (tango.harness.scoring);
summaries and reports written after the run load the plugin its config names (`recorded_scoring`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from tango.harness.scoring import BaseTask, TaskScoring
from tango.types.frames import FrameSink


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode as the harness sees it; `payload` is the task's own episode object (must be picklable).

    `subtask_goal_types` lists the goal type of each subtask of a multi-goal episode (GOAT-Bench), so an
    episode that raises can be counted as failing every one of its subtasks; it is empty for single-goal tasks.
    """

    episode_id: str
    scene_id: str
    instruction: str
    payload: Any = None
    subtask_goal_types: tuple[str, ...] = ()


@dataclass
class EpisodeResult:
    """What a runner reports for one finished episode (the harness adds seed, timing, paths and configs).

    `metrics` are numbers (success, spl, ...); `subtasks` holds one metrics dict per subtask with a
    `goal_type` key (GOAT-Bench); `generation` is the program generator's record (generator, attempts,
    repair errors) as a JSON-able dict; `extra` carries task-specific JSON-able fields (e.g. an answer).
    """

    program: str = ""
    program_source: str = ""
    metrics: dict[str, float] = field(default_factory=dict)
    num_steps: int = 0
    failure_reason: str | None = None
    instruction: str | None = None
    generation: dict[str, Any] | None = None
    subtasks: list[dict[str, Any]] = field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class EpisodeContext:
    """What the harness gives a runner for one episode: its seed and where its artifacts go."""

    seed: int
    run_dir: Path
    trace_path: Path
    frames: FrameSink


@runtime_checkable
class EpisodeRunner(Protocol):
    """Runs episodes one after another in one process; built once per worker by `TaskPlugin.make_runner`."""

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        """Run one episode to the end and score it; raise on errors (the harness records them)."""
        ...

    def describe(self) -> dict[str, Any]:
        """The perception, generator, controller and sensors (the camera: `preset` plus its settings)
        configuration in use (keys of those names), for results."""
        ...

    def close(self) -> None:
        """Release the environment and models."""
        ...


@runtime_checkable
class TaskPlugin(TaskScoring, Protocol):
    """A benchmark as the harness runs it: an episode source, a runner factory and its scoring
    (`scoring_rules`, `aggregate`, `outcome`: tango.harness.scoring; inherit `BaseTask` for neutral defaults)."""

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        """All episodes of the configured split, in a deterministic order; `cfg` is the full resolved config."""
        ...

    def make_runner(self, cfg: dict[str, Any]) -> EpisodeRunner:
        """A runner with its own environment and models; called once in each worker process."""
        ...

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        """The metrics an episode that raised is scored with (e.g. success 0, spl 0): errors count as failures."""
        ...


class PluginError(RuntimeError):
    """The task's plugin path is missing, cannot be imported, or does not implement TaskPlugin."""


def import_attribute(path: str | None, task_name: str, key: str) -> Any:
    """The object a `package.module:attribute` config value names; PluginError naming the task and key if not."""
    if not path:
        raise PluginError(
            f"task {task_name!r} has no runner wired (configs/task/{task_name}.yaml: set `{key}: module:attribute`)"
        )
    module_name, _, attribute = path.partition(":")
    if not attribute:
        raise PluginError(f"task {task_name!r}: {key} {path!r} must look like 'package.module:attribute'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PluginError(
            f"task {task_name!r}: cannot import {key} module {module_name!r}: {error}"
        ) from error
    try:
        return getattr(module, attribute)
    except AttributeError as error:
        raise PluginError(f"task {task_name!r}: module {module_name!r} has no {attribute!r}") from error


def load_plugin(path: str | None, task_name: str) -> TaskPlugin:
    """Import `module:attribute` and return the plugin (a class is instantiated without arguments)."""
    plugin = import_attribute(path, task_name, "plugin")
    if isinstance(plugin, type):
        plugin = plugin()
    if not isinstance(plugin, TaskPlugin):
        raise PluginError(
            f"task {task_name!r}: {path!r} lacks list_episodes/make_runner/failure_metrics or the scoring methods "
            "scoring_rules/aggregate/outcome (see tango.harness.episode; tango.harness.scoring.BaseTask has defaults)"
        )
    return plugin


def recorded_scoring(configs: Mapping[str, Any] | None) -> TaskScoring:
    """The scoring of a finished run: the plugin its recorded config names (`task.plugin`, loaded now), or the
    benchmark-neutral defaults when the config names none; PluginError when the named plugin cannot be loaded.
    Used where results are summarised or reported after the run (tango.merge, report regeneration)."""
    task = (configs or {}).get("task")
    if not isinstance(task, Mapping) or not task.get("plugin"):
        return BaseTask()
    return load_plugin(str(task["plugin"]), str(task.get("name")))
