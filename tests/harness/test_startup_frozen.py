"""What start-up allocated is frozen while episodes run (tango.startup_freeze.freeze_startup), so full garbage
collections in the loop skip it: in a pool worker from its start on, in one process for the episodes only."""

from __future__ import annotations

import gc
import signal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tango.harness import pool


class _CountingWorker:
    """Stands in for EpisodeWorker: records how many objects were frozen while each episode ran."""

    def __init__(self, job: Any, plugin: Any = None) -> None:
        self.frozen: list[int] = []

    def execute(self, spec: Any) -> dict[str, Any]:
        self.frozen.append(gc.get_freeze_count())
        return {"episode_id": spec.episode_id}

    def close(self) -> None:
        pass


def test_one_process_episodes_run_frozen_and_leave_nothing_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workers: list[_CountingWorker] = []

    def build(job: Any, plugin: Any) -> _CountingWorker:
        workers.append(_CountingWorker(job, plugin))
        return workers[-1]

    monkeypatch.setattr(pool, "EpisodeWorker", build)
    before = gc.get_freeze_count()
    records: list[dict[str, Any]] = []
    specs = [SimpleNamespace(episode_id=f"e{i}") for i in range(3)]
    pool.run_episodes(specs, SimpleNamespace(run_dir=tmp_path), None, 1, records.append)  # type: ignore[arg-type]
    assert [r["episode_id"] for r in records] == ["e0", "e1", "e2"]
    assert all(count > 0 for count in workers[0].frozen)
    assert gc.get_freeze_count() == before == 0


def test_a_pool_worker_freezes_once_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "EpisodeWorker", _CountingWorker)
    monkeypatch.setattr(pool, "exit_with_parent", lambda parent: None)
    handler = signal.getsignal(signal.SIGTERM)
    try:
        pool._init_worker(SimpleNamespace(), 0)  # type: ignore[arg-type]
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        signal.signal(signal.SIGTERM, handler)
        monkeypatch.setattr(pool, "_worker", None)
