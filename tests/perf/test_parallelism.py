"""eval.num_workers: a number, or auto (the default: cores, within memory, at most one per episode); every run
pins its own threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tango.harness.parallelism import (
    AUTO,
    WORKER_MEMORY_BYTES,
    available_memory_bytes,
    parse_workers,
    usable_cores,
    worker_count,
)
from tango.harness.run import RunError, run_evaluation
from tango.tasks.fake import FakeRunner, FakeTask
from tests.harness.conftest import fake_config, records_by_id

ROOT = Path(__file__).resolve().parents[2]


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


def test_the_default_is_auto_and_gives_the_results_of_one_worker(tmp_path: Path) -> None:
    task = {"subtasks": 2, "fail_ids": ["fake-002"]}
    run_evaluation(fake_config(tmp_path / "one", task=task, num_episodes=4, num_workers=1))
    run_evaluation(fake_config(tmp_path / "auto", task=task, num_episodes=4))
    summary = json.loads((tmp_path / "auto" / "summary.json").read_text())
    assert summary["num_workers"] == worker_count(AUTO, 4)
    assert records_by_id(tmp_path / "auto") == records_by_id(tmp_path / "one")


CHILD = """
import json, os, sys
from pathlib import Path
from tango.harness.run import run_evaluation
from tests.harness.conftest import fake_config
run_evaluation(fake_config(Path(sys.argv[1]), num_episodes=1, num_workers=1))
import torch
print(json.dumps({"torch": torch.get_num_threads(), "omp": os.environ.get("OMP_NUM_THREADS"),
                  "llvmpipe": os.environ.get("LP_NUM_THREADS")}))
"""


def test_a_single_process_run_pins_its_own_threads(tmp_path: Path) -> None:
    """Nothing in the environment: the run itself sets one compute thread and no rasteriser threads."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "run")],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"torch": 1, "omp": "1", "llvmpipe": "0"}


class UnbuildableTask(FakeTask):
    """The fake task with a runner that cannot be built (as a task whose server is unreachable)."""

    def make_runner(self, cfg: dict[str, Any]) -> FakeRunner:
        raise RunError("the simulator server at http://127.0.0.1:9 is unreachable")


def test_a_runner_that_cannot_be_built_in_pool_workers_stops_the_run_with_its_error(tmp_path: Path) -> None:
    """As in one process: the run stops with the RunError (the CLI prints it and exits 2), not a broken pool."""
    plugin = {"plugin": f"{__name__}:UnbuildableTask"}
    with pytest.raises(RunError, match="unreachable"):
        run_evaluation(fake_config(tmp_path, task=plugin, num_episodes=4, num_workers=2))
