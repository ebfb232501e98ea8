"""In-flight markers: RUN_DIR/.inflight/NAME holds the id of the episode a process is running, written before
the episode starts and removed when it ends (or is abandoned on SIGINT/SIGTERM), so a marker left behind names
the episode a dead process was running.

A pool worker's marker is named by its pid; the run process running episodes itself (one worker) names its
marker `run-<pid>`. A pool notices a dead worker while it runs (tango.harness.pool); a run process that dies
cannot, so the next run on the folder (holding its lock, so no process of the old run is alive) reads its
marker and records the episode as crashed (`crash_record`) instead of dying on it again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.harness.episode import EpisodeSpec, TaskPlugin

INFLIGHT_DIR = ".inflight"
RUN_PROCESS_PREFIX = "run-"
CRASH_TYPE = "WorkerCrashed"


@dataclass(frozen=True)
class Marker:
    """One marker left in the folder: who wrote it (`in_run_process`: the run itself, not a pool worker)."""

    name: str
    episode_id: str

    @property
    def in_run_process(self) -> bool:
        return self.name.startswith(RUN_PROCESS_PREFIX)


def marker_path(run_dir: str | os.PathLike[str], name: str) -> Path:
    return Path(run_dir) / INFLIGHT_DIR / name


def mark(run_dir: str | os.PathLike[str], name: str, episode_id: str) -> Path:
    """Write marker `name` naming `episode_id`; returns its path (unlink it when the episode ends)."""
    path = marker_path(run_dir, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(episode_id)
    return path


def run_process_marker_name() -> str:
    return f"{RUN_PROCESS_PREFIX}{os.getpid()}"


def take_markers(run_dir: str | os.PathLike[str]) -> list[Marker]:
    """Every marker in the folder, removed as it is read."""
    folder = Path(run_dir) / INFLIGHT_DIR
    markers = []
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        try:
            markers.append(Marker(path.name, path.read_text()))
        except OSError:
            continue
        path.unlink(missing_ok=True)
    return markers


def crash_record(spec: EpisodeSpec, task: str, plugin: TaskPlugin, reason: str) -> dict[str, Any]:
    """The error record of an episode whose process died while running it (scored as the task's failure)."""
    failure = plugin.failure_metrics(spec)
    return {
        "episode_id": spec.episode_id,
        "task": task,
        "scene_id": spec.scene_id,
        "instruction": spec.instruction,
        "program": "",
        "program_source": "",
        "metrics": dict(failure),
        "num_steps": 0,
        "failure_reason": f"{CRASH_TYPE}: {reason}",
        "status": "error",
        "error_type": CRASH_TYPE,
        "subtasks": [{"goal_type": goal_type, **failure} for goal_type in spec.subtask_goal_types],
        "trace_path": None,
        "video_path": None,
        "thumbnail_path": None,
    }
