"""The scoring side of the task interface: neutral defaults, pooling, each built-in task's own scoring, the
plugin a finished run's config names, and a harness that imports no benchmark."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tango.harness.episode import PluginError, TaskPlugin, recorded_scoring
from tango.harness.scoring import PASS_SCORE, BaseTask, pool_by_goal_type
from tango.tasks.fake import FakeTask
from tango.tasks.goat import GoatTask
from tango.tasks.objectnav import ObjectNavTask
from tango.tasks.openeqa import OpenEQATask

HARNESS = Path(__file__).resolve().parents[2] / "tango" / "harness"
BENCHMARK_PACKAGES = ("tango.tasks", "tango.benchmarks", "tango.urban")
SUBTASKS = [
    {"goal_type": "object", "success": 1.0, "spl": 0.5},
    {"goal_type": "object", "success": 0.0, "spl": 0.0},
    {"goal_type": "image", "success": 1.0, "spl": 1.0},
]


def test_neutral_scoring_has_no_rules_no_pooling_and_reads_success_only() -> None:
    task = BaseTask()
    assert task.scoring_rules({"success_distance": 1.0}) == {}
    assert task.aggregate(SUBTASKS) is None
    assert task.outcome({"success": 1.0}) == 1.0 and task.outcome({"success": 0}) == 0.0
    assert task.outcome({"normalised_match": 100.0}) is None
    assert task.outcome({"success": True}) is None  # a flag is not a score


def test_subtasks_pool_over_subtasks_and_per_goal_type() -> None:
    pooled = pool_by_goal_type(SUBTASKS)
    assert pooled["count"] == 3
    assert pooled["metrics"]["success"] == pytest.approx(2 / 3)
    assert pooled["metrics"]["spl"] == pytest.approx(0.5)
    assert pooled["by_goal_type"]["object"] == {"count": 2, "metrics": {"spl": 0.25, "success": 0.5}}
    assert pooled["by_goal_type"]["image"]["metrics"]["success"] == 1.0


def test_each_task_scores_by_its_benchmark() -> None:
    goat, objectnav, eqa = GoatTask(), ObjectNavTask(), OpenEQATask()
    assert all(isinstance(task, TaskPlugin) for task in (goat, objectnav, eqa, FakeTask()))
    assert goat.aggregate(SUBTASKS) == pool_by_goal_type(SUBTASKS) and objectnav.aggregate(SUBTASKS) is None
    rules = objectnav.scoring_rules({"success_distance": 0.1, "distance_to": "POINT"})
    assert rules["success_distance"] == 0.1 and "nearest goal instance" in rules["distance_definition"]
    assert eqa.outcome({"llm_match": 75.0, "normalised_match": 0.0}) == 0.75  # judged: LLM-Match first
    assert eqa.outcome({"normalised_match": 25.0}) == 0.25 < PASS_SCORE
    assert objectnav.outcome({"normalised_match": 100.0}) is None


def test_a_finished_run_is_scored_by_the_plugin_its_config_names() -> None:
    found = recorded_scoring({"task": {"name": "fake", "plugin": "tango.tasks.fake:FakeTask"}})
    assert isinstance(found, FakeTask)
    assert type(recorded_scoring({"task": {"name": "mine"}})) is BaseTask
    assert type(recorded_scoring(None)) is BaseTask
    with pytest.raises(PluginError, match="cannot import plugin module"):
        recorded_scoring({"task": {"name": "gone", "plugin": "no_such_package.tasks:Task"}})


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports (absolute names; the harness uses no relative imports)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            names.add(str(node.module))
    return names


def test_the_harness_imports_no_benchmark() -> None:
    files = sorted(HARNESS.glob("*.py"))
    assert len(files) > 10
    found = {
        f"{path.name}: {name}"
        for path in files
        for name in _imported_modules(path)
        if any(name == package or name.startswith(package + ".") for package in BENCHMARK_PACKAGES)
    }
    assert not found, f"the harness imports benchmarks: {sorted(found)}"
