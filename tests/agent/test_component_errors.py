"""A component that fails inside an episode (here the learned controller's checkpoint, missing) makes that
episode an error with its reason, counted in summary.json's errors, not a clean failure. The run goes through
run_evaluation, below tango.eval's pre-flight checks, which would refuse this configuration before any episode."""

from __future__ import annotations

import json
from pathlib import Path

from tango.harness.run import run_evaluation
from tests.agent.synthetic import eval_config, read_jsonl


def test_a_missing_checkpoint_inside_an_episode_is_that_episodes_error(
    dataset_root: Path, tmp_path: Path
) -> None:
    config = eval_config(
        dataset_root, "objectnav", tmp_path, "eval.num_episodes=1", "task.max_steps=20",
        "agent.navigation.controller=pointnav", f"agent.navigation.pointnav_checkpoint={tmp_path / 'none.pth'}",
    )  # fmt: skip
    run_evaluation(config)
    (record,) = read_jsonl(tmp_path / "episodes.jsonl")
    assert record["status"] == "error" and record["error_type"] == "CheckpointError"
    assert "none.pth" in record["failure_reason"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["num_errors"] == 1 and summary["errors_by_reason"] == {"CheckpointError": 1}
