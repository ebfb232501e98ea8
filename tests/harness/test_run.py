"""End-to-end runs of the fake task in this process: contract files, failures, resume, video, report."""

from __future__ import annotations

import json
from pathlib import Path

import imageio.v2 as imageio
import pytest

from tango.harness.report import goal_groups
from tango.harness.report_rows import Row
from tango.harness.run import RunError, run_evaluation
from tests.harness.conftest import fake_config, records_by_id

CONTRACT_FIELDS = {
    "episode_id",
    "task",
    "scene_id",
    "instruction",
    "program",
    "program_source",
    "metrics",
    "num_steps",
    "failure_reason",
    "trace_path",
    "generation",
    "perception",
    "generator",
    "controller",
    "success_distance",
}


def test_run_writes_contract_files(tmp_path: Path) -> None:
    outcome = run_evaluation(fake_config(tmp_path, num_episodes=5))
    records = records_by_id(tmp_path)
    assert sorted(records) == [f"fake-{i:03d}" for i in range(5)]
    for record in records.values():
        assert CONTRACT_FIELDS <= set(record)
        assert (tmp_path / record["trace_path"]).is_file()
        assert (tmp_path / record["thumbnail_path"]).is_file()
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["num_episodes"] == 5
    expected_sr = sum(r["metrics"]["success"] for r in records.values()) / 5
    assert summary["metrics"]["success"] == pytest.approx(expected_sr)
    assert summary["configs"]["task"]["name"] == "fake"
    assert outcome.summary["num_episodes"] == 5
    assert (tmp_path / "report.html").is_file()


def test_failing_episode_is_recorded_and_the_run_continues(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, task={"fail_ids": ["fake-001"]}, num_episodes=4))
    records = records_by_id(tmp_path)
    assert len(records) == 4
    failed = records["fake-001"]
    assert failed["status"] == "error"
    assert failed["error_type"] == "FakeEpisodeError"
    assert "scripted failure in fake-001" in failed["failure_reason"]
    assert failed["metrics"] == {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}
    assert all(records[f"fake-00{i}"]["status"] == "ok" for i in (0, 2, 3))
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["errors_by_reason"] == {"FakeEpisodeError": 1}
    ok_successes = sum(records[f"fake-00{i}"]["metrics"]["success"] for i in (0, 2, 3))
    assert summary["metrics"]["success"] == pytest.approx(ok_successes / 4)


def test_failing_multi_goal_episode_fails_all_its_subtasks(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, task={"subtasks": 3, "fail_ids": ["fake-000"]}, num_episodes=2))
    failed = records_by_id(tmp_path)["fake-000"]
    assert [s["goal_type"] for s in failed["subtasks"]] == ["object", "description", "image"]
    assert all(s["success"] == 0.0 for s in failed["subtasks"])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["subtasks"]["count"] == 6


def test_rerun_skips_finished_episodes_and_runs_only_new_ones(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, num_episodes=3))
    first = records_by_id(tmp_path)
    run_evaluation(fake_config(tmp_path, num_episodes=5))
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines()
    ids = [json.loads(line)["episode_id"] for line in lines]
    assert sorted(ids) == [f"fake-{i:03d}" for i in range(5)]
    assert {k: v for k, v in records_by_id(tmp_path).items() if k in first} == first
    assert json.loads((tmp_path / "summary.json").read_text())["num_episodes"] == 5


def test_resume_off_refuses_an_existing_run(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, num_episodes=1))
    with pytest.raises(RunError, match="resume"):
        run_evaluation(fake_config(tmp_path, num_episodes=2, resume=False))


def test_video_has_one_frame_per_step(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, task={"min_steps": 4, "max_steps": 6}, num_episodes=1, video=True))
    record = records_by_id(tmp_path)["fake-000"]
    reader = imageio.get_reader(str(tmp_path / record["video_path"]))
    frames = [frame for frame in reader]
    reader.close()
    assert len(frames) == record["num_steps"]
    assert frames[0].shape[0] % 2 == 0 and frames[0].shape[1] >= 3 * 32


def test_report_has_one_row_per_episode_with_escaped_text(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, num_episodes=3, video=True))
    page = (tmp_path / "report.html").read_text()
    assert page.count('<tr class="episode') == 3
    assert "detect(&quot;object_2&quot;)" in page
    assert 'href="videos/fake-001.mp4"' in page
    assert 'src="thumbnails/fake-002.png"' in page


def test_retry_errors_reruns_only_the_episodes_that_raised(tmp_path: Path) -> None:
    run_evaluation(fake_config(tmp_path, task={"fail_ids": ["fake-001"]}, num_episodes=3))
    before = records_by_id(tmp_path)
    run_evaluation(fake_config(tmp_path, num_episodes=3))
    assert records_by_id(tmp_path)["fake-001"]["status"] == "error"  # plain resume keeps the error
    run_evaluation(fake_config(tmp_path, num_episodes=3, retry_errors=True))
    after = records_by_id(tmp_path)
    assert after["fake-001"]["status"] == "ok"
    assert after["fake-000"] == before["fake-000"] and after["fake-002"] == before["fake-002"]
    assert len((tmp_path / "episodes.jsonl").read_text().splitlines()) == 3


def test_the_goal_chart_never_labels_mixed_goal_types_with_one_of_them() -> None:
    """One episode per kind (UrbanGround rungs) is drawn as one bar over all of them, not as the first kind."""
    mixed = [Row(str(i), 0, kind, "goal", "success", score=1.0) for i, kind in enumerate(["LQ", "SN", "OQ"])]
    assert [(g.label, g.count) for g in goal_groups(mixed)] == [("all", 3)]
    same = [Row(str(i), None, "objectnav", f"find {i}", "success", score=1.0) for i in range(3)]
    assert [(g.label, g.count) for g in goal_groups(same)] == [("objectnav", 3)]
    repeated = [Row(str(i), None, "objectnav", goal, "success", score=1.0) for i, goal in enumerate("aab")]
    assert sorted((g.label, g.count) for g in goal_groups(repeated)) == [("a", 2), ("b", 1)]
