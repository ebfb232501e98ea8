"""The entry point's `prepare` hook runs once a configuration has passed its checks and before any episode is
listed, so a configuration mistake is refused before slow work (generating the default dataset)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tango.harness.config import ConfigError
from tango.harness.run import run_evaluation
from tests.harness.conftest import fake_config


def test_prepare_runs_once_per_run(tmp_path: Path) -> None:
    seen: list[str] = []

    def prepare(config: dict[str, Any]) -> None:
        seen.append(str(config["task"]["name"]))

    outcome = run_evaluation(fake_config(tmp_path / "run", num_episodes=2), prepare=prepare)
    assert seen == ["fake"] and outcome.summary["num_episodes"] == 2


def test_a_configuration_mistake_is_refused_before_prepare(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    config = fake_config(tmp_path / "run", task={"no_such_setting": 1})
    with pytest.raises(ConfigError, match="no_such_setting"):
        run_evaluation(config, prepare=seen.append)
    assert seen == []
