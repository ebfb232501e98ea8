"""Speed work keeps the agent's behaviour: fixed episodes give the recorded actions and metrics exactly.

The reference (`golden_episodes.json`) was recorded with `python -m tests.perf.golden --record` before the
speed changes; see tests/perf/golden.py for the episodes and what a fingerprint mismatch means.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.perf.golden import GOLDEN_FILE, RUNS, dataset_fingerprint, golden_dataset, run_golden


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    return dict(json.loads(GOLDEN_FILE.read_text()))


@pytest.fixture(scope="module")
def golden_root(tmp_path_factory: pytest.TempPathFactory, golden: dict[str, Any]) -> Path:
    root = golden_dataset(tmp_path_factory.getbasetemp())
    if dataset_fingerprint(root) != golden["dataset_fingerprint"]:
        pytest.fail(
            "dataset generation changed since the golden episodes were recorded: re-record them with "
            "`python -m tests.perf.golden --record` on code whose behaviour is the reference"
        )
    return root


def _assert_same(expected: dict[str, Any], actual: dict[str, Any]) -> None:
    assert sorted(actual) == sorted(expected)
    for key, episode in expected.items():
        got = actual[key]
        assert got["actions"] == episode["actions"], f"{key}: the actions differ"
        assert got == episode, f"{key}: same actions but different results"


def _expected(golden: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in golden["episodes"].items() if k.split("/")[0] in names}


def test_objectnav_episodes_repeat_the_recorded_actions_and_metrics(
    golden: dict[str, Any], golden_root: Path, tmp_path: Path
) -> None:
    names = ("objectnav",)
    _assert_same(_expected(golden, names), run_golden(golden_root, tmp_path, names))


@pytest.mark.slow
def test_all_golden_episodes_repeat_the_recorded_actions_and_metrics(
    golden: dict[str, Any], golden_root: Path, tmp_path: Path
) -> None:
    _assert_same(golden["episodes"], run_golden(golden_root, tmp_path, tuple(RUNS)))


@pytest.mark.slow
def test_two_workers_give_the_recorded_results(
    golden: dict[str, Any], golden_root: Path, tmp_path: Path
) -> None:
    """Pool workers run in other processes (their actions are not observable here): every results field must
    still equal the one-process recording."""
    names = ("objectnav",)
    expected = {
        k: {f: v for f, v in e.items() if f != "actions"} for k, e in _expected(golden, names).items()
    }
    got = run_golden(golden_root, tmp_path, names, "eval.num_workers=2", record_actions=False)
    assert got == expected
