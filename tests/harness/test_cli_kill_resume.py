"""`python -m tango.eval` as a user runs it: killed with SIGKILL mid-run, rerun, every episode exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NUM_EPISODES = 12


def _command(run_dir: Path, workers: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tango.eval",
        "task=fake",
        f"eval.num_episodes={NUM_EPISODES}",
        f"eval.output_dir={run_dir}",
        "eval.progress=false",
        "task.step_sleep_s=0.01",
        "task.min_steps=10",
        "task.max_steps=20",
        "task.fail_ids=[fake-003]",
        f"eval.num_workers={workers}",
    ]


def _finished_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.is_file() else 0


def _children(pid: int) -> set[int]:
    """Live processes whose parent is `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)}


def _state(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}/status").read_text().split("State:", 1)[1].split("\n", 1)[0]).lower()
    except (OSError, IndexError):
        return "zombie"


@pytest.mark.parametrize("workers", [1, 2])
def test_sigkill_mid_run_then_rerun_records_each_episode_once(tmp_path: Path, workers: int) -> None:
    run_dir = tmp_path / "run"
    results = run_dir / "episodes.jsonl"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(
        _command(run_dir, workers), cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while _finished_lines(results) < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    workers_before_kill = _children(process.pid)
    assert workers == 1 or len(workers_before_kill) >= workers
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while _alive(workers_before_kill) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(workers_before_kill), "pool workers outlived the killed run"
    killed_after = _finished_lines(results)
    assert 3 <= killed_after < NUM_EPISODES, process.stderr.read().decode() if process.stderr else ""
    with results.open("a") as handle:  # what a kill in the middle of a write leaves behind
        handle.write('{"episode_id": "fake-0')
    rerun = _rerun(run_dir, workers, env)
    if workers == 1:
        # The run process itself was running the episode the kill landed in; the rerun cannot tell a kill from
        # a crash, records that episode as crashed and names it; eval.retry_errors=true runs it again.
        crashed = [r for r in _records(results) if r["error_type"] == "WorkerCrashed"]
        assert len(crashed) <= 1
        assert all(r["episode_id"] in rerun.stdout + rerun.stderr for r in crashed)
        rerun = _rerun(run_dir, workers, env, "eval.retry_errors=true")
    ids = [record["episode_id"] for record in _records(results)]
    assert sorted(ids) == [f"fake-{i:03d}" for i in range(NUM_EPISODES)]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["num_episodes"] == NUM_EPISODES
    assert summary["errors_by_reason"] == {"FakeEpisodeError": 1}
    assert "success" in rerun.stdout and "episodes" in rerun.stdout


def _records(results: Path) -> list[dict]:
    return [json.loads(line) for line in results.read_text().splitlines()]


def _rerun(run_dir: Path, workers: int, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    rerun = subprocess.run(
        [*_command(run_dir, workers), *extra],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rerun.returncode == 0, rerun.stderr
    return rerun
