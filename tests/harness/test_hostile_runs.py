"""Hostile runs of `python -m tango.eval` as users and schedulers cause them: two runs on one folder, an episode
that kills the single run process, SIGTERM, and configuration mistakes (one line, exit code 2)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tango.harness.dirlock import OutputDirBusy, OutputDirLock
from tango.harness.inflight import INFLIGHT_DIR
from tango.harness.run import run_evaluation
from tests.harness.conftest import fake_config

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "OMP_NUM_THREADS": "1"}
SLOW = ["task.step_sleep_s=0.02", "task.min_steps=10", "task.max_steps=20"]


def _command(run_dir: Path, *overrides: str) -> list[str]:
    return [
        sys.executable, "-m", "tango.eval", "task=fake", f"eval.output_dir={run_dir}",
        "eval.progress=false", "eval.report=false", *overrides,
    ]  # fmt: skip


def _start(run_dir: Path, *overrides: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _command(run_dir, *overrides),
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run(run_dir: Path, *overrides: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _command(run_dir, *overrides),
        cwd=REPO,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _records(run_dir: Path) -> list[dict]:
    path = run_dir / "episodes.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def _wait_for_records(run_dir: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 90
    while len(_records(run_dir)) < count and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_records(run_dir)) >= count, "the run did not get going"


# --- one writer per output folder -------------------------------------------------------------------------------


def test_a_second_run_on_a_locked_folder_names_the_holder_and_writes_nothing(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with OutputDirLock(run_dir), pytest.raises(OutputDirBusy) as refused:
        run_evaluation(fake_config(run_dir, {"num_available": 4}))
    assert f"pid {os.getpid()}" in str(refused.value) and "eval.wait_for_lock=true" in str(refused.value)
    assert _records(run_dir) == []


def test_two_runs_on_one_folder_record_each_episode_exactly_once(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    slower = ["eval.num_episodes=8", "task.step_sleep_s=0.15", "task.min_steps=10", "task.max_steps=20"]
    first = _start(run_dir, *slower)
    _wait_for_records(run_dir, 1, first)
    refused = _run(run_dir, *slower)
    waiting = _start(run_dir, *slower, "eval.wait_for_lock=true")
    assert first.poll() is None, (
        "the first run ended before the others started: the test needs slower episodes"
    )
    assert first.wait(timeout=180) == 0
    assert waiting.wait(timeout=180) == 0
    assert "waiting for it (eval.wait_for_lock)" in "".join(waiting.communicate())
    assert refused.returncode == 2
    (line,) = refused.stderr.strip().splitlines()
    assert line.startswith("tango.eval: error:") and f"pid {first.pid}" in line
    ids = sorted(record["episode_id"] for record in _records(run_dir))
    assert ids == [f"fake-{i:03d}" for i in range(8)]
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True


def test_the_lock_of_a_killed_run_is_released_by_the_system(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    killed = _start(run_dir, "eval.num_episodes=20", *SLOW)
    _wait_for_records(run_dir, 1, killed)
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=10)
    with OutputDirLock(run_dir):
        assert (run_dir / ".lock").is_file()


# --- an episode that kills the run process ------------------------------------------------------------------------


def test_an_episode_that_kills_the_single_run_process_is_recorded_as_crashed_by_the_next_run(
    tmp_path: Path,
) -> None:
    run_dir = tmp_path / "run"
    crashing = ["eval.num_episodes=5", "eval.num_workers=1", "task.crash_ids=[fake-002]"]
    died = _run(run_dir, *crashing)
    assert died.returncode == 17
    assert (run_dir / INFLIGHT_DIR).is_dir()
    rerun = _run(run_dir, *crashing)
    assert rerun.returncode == 0, rerun.stderr
    assert "episode fake-002 was running when an earlier run's process died" in rerun.stdout + rerun.stderr
    records = {record["episode_id"]: record for record in _records(run_dir)}
    assert sorted(records) == [f"fake-{i:03d}" for i in range(5)]
    assert records["fake-002"]["error_type"] == "WorkerCrashed"
    assert records["fake-002"]["metrics"]["success"] == 0.0
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True
    assert not any((run_dir / INFLIGHT_DIR).iterdir())
    run_evaluation(fake_config(run_dir, {"crash_ids": []}, num_episodes=5, retry_errors=True))
    assert {r["episode_id"]: r["status"] for r in _records(run_dir)}["fake-002"] == "ok"


# --- SIGTERM ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_writes_an_incomplete_summary_and_the_rerun_finishes(tmp_path: Path, workers: int) -> None:
    run_dir = tmp_path / "run"
    overrides = ["eval.num_episodes=10", f"eval.num_workers={workers}", *SLOW]
    process = _start(run_dir, *overrides)
    _wait_for_records(run_dir, 2, process)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["complete"] is False and 2 <= summary["num_episodes"] < 10
    assert "stopped by SIGTERM" in stdout + stderr and "rerun the same command to resume" in stdout + stderr
    assert not (run_dir / INFLIGHT_DIR).is_dir() or not any((run_dir / INFLIGHT_DIR).iterdir())
    rerun = _run(run_dir, *overrides)
    assert rerun.returncode == 0, rerun.stderr
    records = _records(run_dir)
    assert sorted(r["episode_id"] for r in records) == [f"fake-{i:03d}" for i in range(10)]
    assert all(r["status"] == "ok" for r in records)
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True


# --- user mistakes: one line, exit code 2 -------------------------------------------------------------------------

MISTAKES = [
    ("unknown_fake_key", ["+task.foo=1"], "unknown task setting(s) ['foo']"),
    ("num_episodes_text", ["eval.num_episodes=abc"], "eval.num_episodes=abc"),
    ("unknown_eval_key", ["eval.nope=1"], "eval.nope"),
    ("unknown_task", ["task=nope"], "Could not find 'task/nope'"),
    (
        "missing_data_path",
        ["task=objectnav", "task.data_path=/nonexistent/val.json.gz"],
        "/nonexistent/val.json.gz",
    ),
    ("habitat_sim_missing", ["task=objectnav", "sim=habitat"], "sim=habitat needs habitat-sim"),
    ("unknown_objectnav_key", ["task=objectnav", "+task.foo=1"], "unknown task setting(s) ['foo']"),
]


@pytest.mark.parametrize(("name", "overrides", "message"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_user_mistake_prints_one_line_and_exits_2(
    tmp_path: Path, name: str, overrides: list[str], message: str
) -> None:
    result = _run(tmp_path / "run", *overrides)
    assert result.returncode == 2
    assert result.stdout.strip() == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("tango.eval: error: ") and message in line


def test_a_corrupt_dataset_file_is_named_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "dataset.json").write_text("{}")
    corrupt = tmp_path / "val.json.gz"
    corrupt.write_bytes(b"\x1f\x8b not gzip")
    result = _run(tmp_path / "run", "task=objectnav", f"task.data_path={corrupt}")
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert str(corrupt) in line and "unreadable" in line


def test_verbose_shows_the_full_traceback(tmp_path: Path) -> None:
    result = _run(tmp_path / "run", "+task.foo=1", "--verbose")
    assert result.returncode != 0
    assert "Traceback (most recent call last)" in result.stderr and "ConfigError" in result.stderr
