"""A self-contained stand-in task (`task=fake`) that exercises the harness without a simulator.

Episodes are synthetic; each step spends a configurable amount of CPU time, the outcome is drawn from the
episode seed, and listed episodes raise or kill their worker on purpose. Used by the harness tests and the
eval benchmark; it measures nothing about an agent. Its metrics are navigation metrics at `success_distance`
and, with `subtasks` > 0, its GOAT-like subtasks are pooled by goal type as GOAT's are.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.config_utils import dataclass_from_dict
from tango.harness.config import ConfigError
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.harness.scoring import BaseTask, pool_by_goal_type
from tango.tasks.measures import navigation_metrics, scoring_rules

GOAL_TYPES = ("object", "description", "image")
FAKE_PROGRAM = 'explore_scene()\nobj = detect("{target}")\nif obj:\n    navigate_to(obj)\n    stop()'


class FakeEpisodeError(RuntimeError):
    """The failure a fake episode listed in `fail_ids` raises."""


@dataclass
class FakeTaskConfig:
    """configs/task/fake.yaml: how many episodes, their cost per step, and which ones fail or crash."""

    name: str = "fake"
    plugin: str = "tango.tasks.fake:FakeTask"
    num_available: int = 20
    subtasks: int = 0
    success_rate: float = 0.7
    min_steps: int = 5
    max_steps: int = 30
    step_cpu_ms: float = 0.0
    step_sleep_s: float = 0.0
    fail_ids: list[str] = field(default_factory=list)
    crash_ids: list[str] = field(default_factory=list)
    success_distance: float = 1.0
    frame_size: int = 32

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> FakeTaskConfig:
        """From the `task` node; an unknown key is a ConfigError naming it."""
        return dataclass_from_dict(cls, values, "task", ConfigError)


def _spin_cpu(milliseconds: float) -> None:
    """Busy-wait on this process's CPU clock, like a step of rendering and mapping would."""
    end = time.process_time() + milliseconds / 1000.0
    total = 0
    while time.process_time() < end:
        total += sum(range(200))


class FakeRunner:
    """Plays a fake episode: random walk of steps, seeded outcome, optional frames, a JSONL trace."""

    def __init__(self, config: FakeTaskConfig) -> None:
        self.config = config

    def describe(self) -> dict[str, Any]:
        """No perception, generator, controller or camera: the fake task has none."""
        return {
            "perception": {"name": "none"},
            "generator": {"name": "fake"},
            "controller": {"name": "none"},
            "sensors": {"preset": "none"},
        }

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        """Play the episode from its seed; raise for `fail_ids`, kill the process for `crash_ids`."""
        cfg = self.config
        rng = np.random.default_rng(ctx.seed)
        if spec.episode_id in cfg.crash_ids:
            os._exit(17)
        num_steps = int(rng.integers(cfg.min_steps, cfg.max_steps + 1))
        program = FAKE_PROGRAM.format(target=spec.payload["target"])
        lines = program.splitlines()
        with ctx.trace_path.open("w", encoding="utf-8") as trace:
            for step in range(num_steps):
                _spin_cpu(cfg.step_cpu_ms)
                if cfg.step_sleep_s:
                    time.sleep(cfg.step_sleep_s)
                line = lines[step % len(lines)]
                trace.write(json.dumps({"step": step, "line": line}) + "\n")
                if ctx.frames.enabled or step == num_steps - 1:
                    size = cfg.frame_size
                    rgb = rng.integers(0, 255, (size, size, 3), dtype=np.uint8)
                    depth = rng.uniform(0.0, 5.0, (size, size)).astype(np.float32)
                    topdown = np.full((size, size, 3), 40 + step % 200, dtype=np.uint8)
                    ctx.frames.add(rgb, depth, topdown, line)
                if spec.episode_id in cfg.fail_ids and step == num_steps // 2:
                    raise FakeEpisodeError(f"scripted failure in {spec.episode_id} at step {step}")
        subtasks = [self._outcome(rng, goal_type) for goal_type in spec.subtask_goal_types]
        metrics = self._outcome(rng, None) if not subtasks else self._episode_means(subtasks)
        success = metrics["success"] >= 1.0
        return EpisodeResult(
            program=program,
            program_source="template",
            metrics=metrics,
            num_steps=num_steps,
            failure_reason=None if success else "not_found: stopped away from the goal",
            generation={"generator": "fake", "attempts": [{"text": program, "error": None}]},
            subtasks=subtasks,
        )

    def _outcome(self, rng: np.random.Generator, goal_type: str | None) -> dict[str, Any]:
        shortest = float(rng.uniform(2.0, 10.0))
        found = rng.random() < self.config.success_rate
        distance = float(rng.uniform(0.0, 0.9)) if found else float(rng.uniform(1.5, 5.0))
        walked = shortest * float(rng.uniform(1.0, 2.0))
        metrics: dict[str, Any] = navigation_metrics(
            distance, shortest, shortest, walked, self.config.success_distance
        )
        if goal_type is not None:
            metrics["goal_type"] = goal_type
        return metrics

    @staticmethod
    def _episode_means(subtasks: list[dict[str, Any]]) -> dict[str, float]:
        keys = [key for key in subtasks[0] if key != "goal_type"]
        return {key: float(np.mean([subtask[key] for subtask in subtasks])) for key in keys}

    def close(self) -> None:
        """Nothing to release."""


class FakeTask(BaseTask):
    """The TaskPlugin of `task=fake`."""

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        """`task.num_available` synthetic episodes, GOAT-like with `task.subtasks` > 0."""
        task = FakeTaskConfig.from_dict(cfg["task"])
        return [
            EpisodeSpec(
                episode_id=f"fake-{index:03d}",
                scene_id=f"fake_scene_{index % 3}",
                instruction=f"find the object number {index}",
                payload={"target": f"object_{index}"},
                subtask_goal_types=tuple(GOAL_TYPES[(index + k) % 3] for k in range(task.subtasks)),
            )
            for index in range(task.num_available)
        ]

    def make_runner(self, cfg: dict[str, Any]) -> FakeRunner:
        """A runner for this process."""
        return FakeRunner(FakeTaskConfig.from_dict(cfg["task"]))

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        """Navigation metrics of a failed episode."""
        return {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """The success radius, as the Habitat tasks record theirs."""
        return scoring_rules(task_cfg)

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Subtasks pooled overall and per goal type, as GOAT's are."""
        return pool_by_goal_type(subtasks)


register_task("fake", FakeTaskConfig)
