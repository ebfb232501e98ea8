"""Scaling out: a 2-process pool gives the same per-episode results as 1 process; shards merge back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tango.harness.results import ResultsError
from tango.harness.run import run_evaluation
from tango.harness.sharding import episode_seed, select_episodes
from tango.merge import main as merge_main
from tango.merge import merge_runs
from tests.harness.conftest import fake_config, records_by_id

TASK = {"subtasks": 2, "fail_ids": ["fake-004"]}


def test_two_workers_give_the_same_results_as_one(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path / "one", task=TASK, num_episodes=8, num_workers=1))
    run_evaluation(fake_config(tmp_path / "two", task=TASK, num_episodes=8, num_workers=2))
    one, two = records_by_id(tmp_path / "one"), records_by_id(tmp_path / "two")
    assert sorted(one) == sorted(two) == [f"fake-{i:03d}" for i in range(8)]
    for episode_id in one:
        strip = ("traceback",)
        assert {k: v for k, v in one[episode_id].items() if k not in strip} == {
            k: v for k, v in two[episode_id].items() if k not in strip
        }
    assert one["fake-004"]["status"] == "error"
    summary_one = json.loads((tmp_path / "one" / "summary.json").read_text())
    summary_two = json.loads((tmp_path / "two" / "summary.json").read_text())
    assert summary_one["metrics"] == summary_two["metrics"]
    assert summary_one["subtasks"] == summary_two["subtasks"]


def test_a_worker_that_dies_is_replaced_and_its_episode_recorded(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, task={"crash_ids": ["fake-002"]}, num_episodes=5, num_workers=2))
    records = records_by_id(tmp_path)
    assert sorted(records) == [f"fake-{i:03d}" for i in range(5)]
    assert records["fake-002"]["error_type"] == "WorkerCrashed"
    assert records["fake-002"]["metrics"]["success"] == 0.0
    assert [records[f"fake-00{i}"]["status"] for i in (0, 1, 3, 4)] == ["ok"] * 4, records


def test_shards_partition_the_selection() -> None:
    episodes = list(range(10))
    shards = [select_episodes(episodes, 7, shard, 3) for shard in range(3)]
    assert sorted(x for shard in shards for x in shard) == list(range(7))
    assert select_episodes(episodes, -1, 0, 1) == episodes


def test_episode_seed_depends_only_on_seed_task_and_id() -> None:
    assert episode_seed(0, "goat", "ep1") == episode_seed(0, "goat", "ep1")
    assert (
        len({episode_seed(0, "goat", "ep1"), episode_seed(1, "goat", "ep1"), episode_seed(0, "goat", "ep2")})
        == 3
    )


def test_merged_shards_equal_the_unsharded_run(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path / "full", task=TASK, num_episodes=7))
    shard_dirs = [tmp_path / f"shard_{i}" for i in range(3)]
    for index, shard_dir in enumerate(shard_dirs):
        run_evaluation(fake_config(shard_dir, task=TASK, num_episodes=7, shard=index, num_shards=3))
    assert merge_main([str(tmp_path / "merged"), *map(str, shard_dirs)]) == 0
    assert records_by_id(tmp_path / "merged") == records_by_id(tmp_path / "full")
    merged = json.loads((tmp_path / "merged" / "summary.json").read_text())
    full = json.loads((tmp_path / "full" / "summary.json").read_text())
    assert merged["metrics"] == full["metrics"]
    assert merged["ci95"] == full["ci95"] and set(merged["ci95"]) == set(merged["metrics"])
    assert merged["num_episodes"] == merged["num_planned"] == 7
    assert (tmp_path / "merged" / "traces" / "fake-005.jsonl").is_file()


def test_merge_rejects_duplicates_and_mixed_tasks(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path / "a", num_episodes=2))
    with pytest.raises(ResultsError, match="fake-000"):
        merge_runs(tmp_path / "out", [tmp_path / "a", tmp_path / "a"])
    other = tmp_path / "b"
    other.mkdir()
    (other / "episodes.jsonl").write_text('{"episode_id": "z", "task": "goat"}\n')
    with pytest.raises(ResultsError, match="different tasks"):
        merge_runs(tmp_path / "out2", [tmp_path / "a", other])
    assert merge_main([str(tmp_path / "out3"), str(tmp_path / "a"), str(tmp_path / "a")]) == 2
