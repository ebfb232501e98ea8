"""eval.num_workers: a number, or auto (cores, within memory, at most one per episode)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tango.harness.parallelism import (
    AUTO,
    WORKER_MEMORY_BYTES,
    available_memory_bytes,
    parse_workers,
    usable_cores,
    worker_count,
)


def test_auto_is_one_worker_per_core_within_memory() -> None:
    plenty = 64 * WORKER_MEMORY_BYTES
    assert worker_count(AUTO, 60, cores=2, memory_bytes=plenty) == 2
    assert worker_count(AUTO, 60, cores=8, memory_bytes=3 * WORKER_MEMORY_BYTES + 1) == 3
    assert worker_count(AUTO, 60, cores=8, memory_bytes=WORKER_MEMORY_BYTES // 2) == 1


def test_never_more_workers_than_episodes_and_at_least_one() -> None:
    assert worker_count(AUTO, 1, cores=16, memory_bytes=None) == 1
    assert worker_count(4, 3) == 3
    assert worker_count(AUTO, 0, cores=4, memory_bytes=None) == 1


def test_auto_on_this_machine_uses_its_cores() -> None:
    assert 1 <= worker_count(AUTO, 1000) <= usable_cores()


def test_meminfo_is_read(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:   20000000 kB\n")
    assert available_memory_bytes(meminfo) == 20000000 * 1024
    assert available_memory_bytes(tmp_path / "missing") is None


@pytest.mark.parametrize("bad", [0, -1, "two", 1.5, True, None])
def test_bad_settings_name_the_key(bad: object) -> None:
    with pytest.raises(ValueError, match="eval.num_workers"):
        parse_workers(bad)


def test_good_settings_pass() -> None:
    assert parse_workers(AUTO) == AUTO and parse_workers(3) == 3
