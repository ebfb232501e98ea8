"""A tiny synthetic dataset (one apartment, a few episodes per benchmark) and eval configs pointing at it.

Generated once per test session under pytest's base temp folder and shared by tests/agent and tests/tasks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hydra import compose, initialize_config_dir

from tango.eval import CONFIG_DIR, resolved
from tango.harness.episode import EpisodeSpec, load_plugin
from tango.harness.registry import TASKS
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset
from tango.scenes.datasets.goat import GoatConfig
from tango.scenes.datasets.objectnav import ObjectNavConfig
from tango.scenes.datasets.openeqa import OpenEQAConfig
from tango.scenes.datasets.ovon import OVONConfig
from tango.scenes.datasets.pointnav import PointNavConfig
from tango.tasks.habitat.plugin import HabitatTask

TASK_SPLITS = {
    "objectnav": "val",
    "ovon": "val",
    "goat": "val",
    "openeqa": "val",
    "pointnav": "val",
}
TINY = DatasetConfig(
    num_scenes=1,
    seed=3,
    objectnav=ObjectNavConfig(episodes_per_scene=2),
    ovon=OVONConfig(episodes_per_scene=2),
    goat=GoatConfig(episodes_per_scene=1, min_subtasks=3, max_subtasks=3),
    openeqa=OpenEQAConfig(histories_per_scene=1),
    pointnav=PointNavConfig(episodes_per_scene=3),
)


def tiny_dataset(base: Path) -> Path:
    """The tiny dataset under `base` (generated on the first call of the session, reused afterwards)."""
    root = base / "tiny_dataset"
    if not (root / "dataset.json").is_file():
        generate_dataset(root, TINY)
    return root


def plugin(task: str) -> HabitatTask:
    """A fresh instance of the registered plugin of a Habitat task."""
    found = load_plugin(TASKS.get(task).schema().plugin, task)
    assert isinstance(found, HabitatTask)
    return found


class TaskWrapper:
    """A task's plugin behind a test's own `make_runner` (episode lists, failure scores and scoring are the
    task's)."""

    def __init__(self, task: HabitatTask) -> None:
        self.task = task

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        return self.task.list_episodes(cfg)

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        return self.task.failure_metrics(spec)

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        return self.task.scoring_rules(task_cfg)

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        return self.task.aggregate(subtasks)

    def outcome(self, metrics: Mapping[str, Any]) -> float | None:
        return self.task.outcome(metrics)


def data_path(root: Path, task: str) -> Path:
    return root / plugin(task).flow.data_file.format(split=TASK_SPLITS[task])


def eval_config(root: Path, task: str, output_dir: Path, *overrides: str) -> dict[str, Any]:
    """The resolved config `python -m tango.eval task=TASK` builds for the tiny dataset, plus `overrides`; one
    worker (in this process, where tests patch and wrap things) unless `overrides` name the count, and oracle
    perception unless they name a preset: these tests check the agent's mechanics against exact ground truth
    (the eval default is the simulated, degraded detector, tested in tests/perception/test_simulated*.py)."""
    if not any(override.startswith("eval.num_workers=") for override in overrides):
        overrides = ("eval.num_workers=1", *overrides)
    if not any(override.startswith("perception=") for override in overrides):
        overrides = ("perception=oracle", *overrides)
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=[
                f"task={task}",
                f"task.data_path={data_path(root, task)}",
                f"task.scenes_dir={root / 'scenes'}",
                f"eval.output_dir={output_dir}",
                "eval.progress=false",
                "eval.report=false",
                *overrides,
            ],
        )
    return resolved(cfg)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
