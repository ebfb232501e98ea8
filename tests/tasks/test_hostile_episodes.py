"""Hostile programs replayed as episodes of the Habitat tasks: they end with a named reason, are never scored
as successes, and leave small records (the runs are real: tiny dataset, embedded simulator)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tango.harness.run import run_evaluation
from tests.agent.synthetic import eval_config, plugin, read_jsonl
from tests.tasks.test_habitat_runner import FollowerTask


def _replay_first(root: Path, task: str, program: str, out: Path, *overrides: str) -> dict[str, Any]:
    """The config running `program` as the first episode of `task`."""
    (spec, *_) = plugin(task).list_episodes(eval_config(root, task, out))
    replay = out.parent / f"{out.name}.jsonl"
    replay.write_text(json.dumps({"instruction": spec.instruction, "program": program}) + "\n")
    return eval_config(
        root,
        task,
        out,
        "eval.num_episodes=1",
        "generator=replay",
        f"generator.replay_path={replay}",
        *overrides,
    )


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("navigate_to([float('inf'), 0, float('-inf')])\n", "finite position"),
        ("navigate_to([1e30, 0, -1e30])\nstop()\n", "outside the scene"),
        ("x = detect('chair' * 2000)\nstop()\n", "at most 200 characters"),
        ("x = round(5, -100000000)\nstop()\n", "digits must be an integer within ±20"),
    ],
    ids=["infinite", "far", "long_label", "round_digits"],
)
def test_a_program_ended_by_an_error_is_not_stopped_or_scored(
    dataset_root: Path, tmp_path: Path, program: str, reason: str
) -> None:
    out = tmp_path / "run"
    run_evaluation(_replay_first(dataset_root, "objectnav", program, out))
    (record,) = read_jsonl(out / "episodes.jsonl")
    assert record["failure_reason"] and reason in record["failure_reason"]
    assert record["metrics"]["success"] == 0.0 and record["metrics"]["called_stop"] == 0.0
    assert record["num_steps"] == 0


@pytest.mark.parametrize(
    ("program", "stopped"), [("x = 1\n", True), ("x = 1 // 0\n", False)], ids=["ends", "error"]
)
def test_at_the_goal_only_a_program_that_ends_by_itself_is_stopped_there(
    dataset_root: Path, tmp_path: Path, program: str, stopped: bool
) -> None:
    out = tmp_path / "run"
    run_evaluation(_replay_first(dataset_root, "objectnav", program, out), plugin=FollowerTask())
    (record,) = read_jsonl(out / "episodes.jsonl")
    assert record["metrics"]["distance_to_goal"] <= record["success_distance"]
    assert record["metrics"]["called_stop"] == float(stopped)
    assert record["metrics"]["success"] == float(stopped)
    assert (record["failure_reason"] is None) == stopped


def test_an_openeqa_answer_too_long_to_keep_is_cut_and_marked(dataset_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_evaluation(_replay_first(dataset_root, "openeqa", 'return [["a" * 10000] * 10000] * 9\n', out))
    (record,) = read_jsonl(out / "episodes.jsonl")
    assert record["extra"]["prediction_cut"] is True
    assert record["failure_reason"].startswith(
        "answer_cut: the program's answer is longer than 1000 characters"
    )
    assert len(record["extra"]["prediction"]) == 1000 and record["extra"]["prediction"].startswith("[['aaa")
    assert record["metrics"]["normalised_match"] == 0.0
    assert (out / "episodes.jsonl").stat().st_size < 20_000


def test_an_openeqa_question_too_long_is_a_primitive_error(dataset_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_evaluation(_replay_first(dataset_root, "openeqa", 'return answer("what " * 2000)\n', out))
    (record,) = read_jsonl(out / "episodes.jsonl")
    assert (
        "primitive_error" in record["failure_reason"]
        and "at most 1000 characters" in record["failure_reason"]
    )
    assert record["extra"]["prediction"] == ""
