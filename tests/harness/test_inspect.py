"""`python -m tango.inspect`: the episode table with filters and the full view of one episode."""

from __future__ import annotations

from pathlib import Path

import pytest

from tango.harness.run import run_evaluation
from tango.inspect import main
from tango.inspect.listing import trace_view
from tests.harness.conftest import fake_config, records_by_id


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("run")
    run_evaluation(fake_config(directory, task={"fail_ids": ["fake-002"]}, num_episodes=6))
    return directory


def test_table_lists_every_episode(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert "6 episodes" in out and all(f"fake-00{i}" in out for i in range(6))


def test_failed_filter_keeps_only_failures(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = records_by_id(run_dir)
    failed = {i for i, r in records.items() if r["failure_reason"]}
    assert main([str(run_dir), "--failed"]) == 0
    out = capsys.readouterr().out
    assert f"{len(failed)} episodes" in out
    assert all((episode_id in out) == (episode_id in failed) for episode_id in records)


def test_reason_filter_matches_error_type(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(run_dir), "--reason", "fakeepisodeerror"]) == 0
    out = capsys.readouterr().out
    assert "1 episodes" in out and "fake-002" in out


def test_episode_view_shows_program_generation_trace_and_error(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(run_dir), "--episode", "fake-002", "--trace-lines", "3"]) == 0
    out = capsys.readouterr().out
    assert "FakeEpisodeError: scripted failure in fake-002" in out
    assert "traceback:" in out and '"step": 2' in out and "more lines" in out
    assert main([str(run_dir), "--episode", "fake-001"]) == 0
    out = capsys.readouterr().out
    assert 'detect("object_1")' in out and "1 attempts" in out and "success:" in out


def test_unknown_episode_is_an_error(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(run_dir), "--episode", "nope"]) == 2
    assert "no episode 'nope'" in capsys.readouterr().err


def _subtask(index: int, goal_type: str) -> dict[str, object]:
    return {"event": "subtask", "index": index, "goal_type": goal_type, "instruction": f"goal {index}"}


def _program_events(lines: list[int]) -> list[dict[str, object]]:
    rows = [
        {"line": n, "count": 1, "calls": 1, "steps": steps, "time_s": 0.0} for n, steps in enumerate(lines, 1)
    ]
    return [
        {"event": "profile", "lines": rows},
        {"event": "end", "stop_reason": "completed", "steps": sum(lines)},
    ]


def test_a_program_spanning_goat_subtasks_is_titled_with_all_of_them_and_its_whole_steps() -> None:
    source = "navigate_to(a)\nstop()\nnavigate_to(b)\nstop()"
    episode = [
        _subtask(0, "image"),
        {"event": "program", "source": source},
        _subtask(1, "object"),
        *_program_events([10, 0, 7, 0]),
    ]
    per_subtask = [
        _subtask(0, "image"),
        {"event": "program", "source": "navigate_to(a)\nstop()"},
        *_program_events([10, 0]),
        _subtask(1, "object"),
        {"event": "program", "source": "navigate_to(b)\nstop()"},
        *_program_events([7, 0]),
    ]
    titles = [line for line in trace_view(episode, full=False) if line.startswith("program ")]
    assert titles == ["program 1 · subtasks 0–1 · completed · 17 steps · 0.00 s"]
    titles = [line for line in trace_view(per_subtask, full=False) if line.startswith("program ")]
    assert titles == [
        "program 1 · subtask 0 (image) · completed · 10 steps · 0.00 s",
        "program 1 · subtask 1 (object) · completed · 7 steps · 0.00 s",
    ]
