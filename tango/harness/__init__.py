"""The evaluation harness: runs a task's episodes (in a process pool, sharded, resumable) and records results.

How a benchmark plugs in (see tango.harness.episode): write a `TaskPlugin` with
`list_episodes(cfg) -> list[EpisodeSpec]` (deterministic order), `make_runner(cfg) -> EpisodeRunner` (called once
per worker process; loads env and models), `failure_metrics(spec) -> dict` (the score of an episode that
raised) and its scoring (`scoring_rules`, `aggregate`, `outcome`: tango.harness.scoring; inherit `BaseTask`
for neutral defaults), then name it in configs/task/<name>.yaml as `plugin: package.module:attribute` and
register its config schema (tango.harness.registry.register_task). The runner's
`run(spec, ctx) -> EpisodeResult` gets the episode seed, a trace path and a frame sink for videos.
Results: tango.harness.results (episodes.jsonl), tango.harness.summary (summary.json), tango.harness.report.
"""

from tango.harness.episode import (
    EpisodeContext,
    EpisodeResult,
    EpisodeRunner,
    EpisodeSpec,
    FrameSink,
    PluginError,
    TaskPlugin,
    load_plugin,
)
from tango.harness.scoring import BaseTask, TaskScoring

__all__ = [
    "BaseTask",
    "EpisodeContext",
    "EpisodeResult",
    "EpisodeRunner",
    "EpisodeSpec",
    "FrameSink",
    "PluginError",
    "TaskPlugin",
    "TaskScoring",
    "load_plugin",
]
