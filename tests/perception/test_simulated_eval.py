"""`perception=simulated` end to end: it is the eval default of the Habitat tasks, a short ObjectNav episode runs
with it and records it as degraded ground truth (every component that reads ground truth named), and blind runs
with the semantic sensor off."""

from __future__ import annotations

from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from tango.eval import CONFIG_DIR
from tango.harness.run import run_evaluation
from tests.agent.synthetic import eval_config, plugin, read_jsonl

HABITAT_TASKS = ("objectnav", "ovon", "goat", "openeqa")


@pytest.mark.parametrize("task", HABITAT_TASKS)
def test_simulated_is_the_default_perception_of_the_habitat_tasks(task: str) -> None:
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        cfg = compose(config_name="eval", overrides=[f"task={task}"])
    assert cfg.perception.name == "simulated" and cfg.perception.detector.kind == "simulated"


def test_a_short_objectnav_episode_runs_with_simulated_perception(dataset_root: Path, tmp_path: Path) -> None:
    config = eval_config(
        dataset_root,
        "objectnav",
        tmp_path,
        "perception=simulated",
        "task.max_steps=40",
        "eval.num_episodes=1",
    )
    run_evaluation(config)
    (record, *_) = read_jsonl(tmp_path / "episodes.jsonl")
    assert record["status"] == "ok", record.get("traceback")
    perception = record["perception"]
    assert perception["name"] == "simulated"
    assert perception["oracle_components"] == [
        "answerer",
        "attributes",
        "description",
        "detector",
        "matcher",
        "room",
        "scorer",
    ]
    assert perception["detector"]["options"]["false_positives_per_frame"] > 0  # the error model is recorded


def test_a_short_goat_episode_runs_every_simulated_component(dataset_root: Path, tmp_path: Path) -> None:
    """GOAT asks for objects, descriptions and pictures, so the detector, scorer, memory, description matcher
    and image-goal matcher all run on simulated perception."""
    config = eval_config(
        dataset_root, "goat", tmp_path, "perception=simulated", "task.max_steps=25", "eval.num_episodes=1"
    )
    run_evaluation(config)
    (record,) = read_jsonl(tmp_path / "episodes.jsonl")
    assert record["status"] == "ok", record.get("traceback")
    assert len(record["subtasks"]) >= 3
    assert record["perception"]["memory"]["features_from"] == "scorer:simulated"


def test_blind_runs_with_the_semantic_sensor_off(dataset_root: Path, tmp_path: Path) -> None:
    config = eval_config(dataset_root, "objectnav", tmp_path, "perception=blind", "task.max_steps=20")
    runner = plugin("objectnav").make_runner(config)
    try:
        assert runner.oracle_components == [] and "semantic" not in runner.sim_config.sensors
    finally:
        runner.close()
