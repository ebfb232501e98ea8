"""Runs one episode inside a worker process and turns its result, or its exception, into a results record."""

from __future__ import annotations

import logging
import random
import re
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tango.harness.episode import (
    EpisodeContext,
    EpisodeResult,
    EpisodeRunner,
    EpisodeSpec,
    TaskPlugin,
    load_plugin,
)
from tango.harness.sharding import episode_seed
from tango.harness.video import EpisodeFrames

log = logging.getLogger(__name__)

TRACES_DIR = "traces"
VIDEOS_DIR = "videos"
THUMBNAILS_DIR = "thumbnails"
CONFIG_KEYS = ("perception", "generator", "controller", "sensors")


@dataclass(frozen=True)
class EpisodeJob:
    """Everything a worker process needs to build its runner and run episodes (picklable for spawn)."""

    task: str
    plugin_path: str | None
    config: dict[str, Any]
    run_dir: str
    base_seed: int
    video: bool
    video_fps: int


def artifact_stem(episode_id: str) -> str:
    """A file-name-safe stem for an episode's trace, video and thumbnail."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", episode_id) or "episode"


def seed_everything(seed: int) -> None:
    """Seed Python's and numpy's global generators, and torch's if a component imported it."""
    random.seed(seed)
    np.random.seed(seed)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(seed)


def _configs_from(config: dict[str, Any], described: dict[str, Any]) -> dict[str, Any]:
    """perception/generator/controller/sensors as the runner describes them, else the config sections that chose
    them (the controller is `agent.navigation`; sensors: null for a runner that does not say which camera it
    used); and the simulator settings when the runner names them."""
    agent = config.get("agent")
    controller = agent.get("navigation") if isinstance(agent, dict) else None
    fallback = {
        "perception": config.get("perception"),
        "generator": config.get("generator"),
        "controller": controller,
        "sensors": None,
    }
    configs = {key: described.get(key, fallback[key]) for key in CONFIG_KEYS}
    if "sim" in described:
        configs["sim"] = described["sim"]
    return configs


class EpisodeWorker:
    """One process's runner plus the bookkeeping around each episode (seed, artifacts, error capture)."""

    def __init__(self, job: EpisodeJob, plugin: TaskPlugin | None = None) -> None:
        self.job = job
        self.run_dir = Path(job.run_dir)
        self.plugin = plugin or load_plugin(job.plugin_path, job.task)
        self.runner: EpisodeRunner = self.plugin.make_runner(job.config)
        self.configs = _configs_from(job.config, self.runner.describe())

    def execute(self, spec: EpisodeSpec) -> dict[str, Any]:
        """Run one episode; never raises for an episode's own failure (it becomes an error record)."""
        seed = episode_seed(self.job.base_seed, self.job.task, spec.episode_id)
        seed_everything(seed)
        stem = artifact_stem(spec.episode_id)
        trace_path = self.run_dir / TRACES_DIR / f"{stem}.jsonl"
        trace_path.parent.mkdir(parents=True, exist_ok=True)
        video_path = self.run_dir / VIDEOS_DIR / f"{stem}.mp4" if self.job.video else None
        frames = EpisodeFrames(video_path, self.job.video_fps)
        ctx = EpisodeContext(seed=seed, run_dir=self.run_dir, trace_path=trace_path, frames=frames)
        start = time.perf_counter()
        error: BaseException | None = None
        try:
            result = self.runner.run(spec, ctx)
        except Exception as caught:  # noqa: BLE001  (an episode's failure is a result, not the end of the run)
            log.warning("episode %s raised %s: %s", spec.episode_id, type(caught).__name__, caught)
            error = caught
            result = EpisodeResult()
        elapsed = time.perf_counter() - start
        written_video = frames.close()
        thumbnail = frames.save_thumbnail(self.run_dir / THUMBNAILS_DIR / f"{stem}.png")
        record = self._record(spec, result, seed, elapsed, error)
        record["trace_path"] = self._relative(trace_path if trace_path.is_file() else None)
        record["video_path"] = self._relative(written_video)
        record["thumbnail_path"] = self._relative(thumbnail)
        return record

    def _relative(self, path: Path | None) -> str | None:
        return None if path is None else str(path.relative_to(self.run_dir))

    def _record(
        self, spec: EpisodeSpec, result: EpisodeResult, seed: int, elapsed: float, error: BaseException | None
    ) -> dict[str, Any]:
        record: dict[str, Any] = {
            "episode_id": spec.episode_id,
            "task": self.job.task,
            "scene_id": spec.scene_id,
            "instruction": result.instruction if result.instruction is not None else spec.instruction,
            "program": result.program,
            "program_source": result.program_source,
            "metrics": dict(result.metrics),
            "num_steps": result.num_steps,
            "failure_reason": result.failure_reason,
            "status": "ok",
            "error_type": None,
            "traceback": None,
            "generation": result.generation,
            "subtasks": list(result.subtasks),
            "llm_calls": result.llm_calls,
            "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens,
            "extra": dict(result.extra),
            "seed": seed,
            "wall_time_s": elapsed,
            **self.plugin.scoring_rules(self.job.config.get("task")),
            **self.configs,
        }
        if error is not None:
            failure = self.plugin.failure_metrics(spec)
            record.update(
                status="error",
                error_type=type(error).__name__,
                failure_reason=f"{type(error).__name__}: {error}",
                traceback="".join(traceback.format_exception(error))[-4000:],
                metrics=dict(failure),
                subtasks=[{"goal_type": goal_type, **failure} for goal_type in spec.subtask_goal_types],
            )
        return record

    def close(self) -> None:
        """Release the runner's environment and models."""
        self.runner.close()
