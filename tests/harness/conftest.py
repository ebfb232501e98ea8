"""Helpers for the harness tests: a resolved config of the fake task, built without hydra for speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tango.tasks.fake import FakeTaskConfig

TIMING_KEYS = {"wall_time_s"}


def fake_config(output_dir: Path, task: dict[str, Any] | None = None, **eval_settings: Any) -> dict[str, Any]:
    """The resolved config `python -m tango.eval task=fake` would build, with overrides."""
    task_cfg = {**FakeTaskConfig().__dict__, **(task or {})}
    return {
        "task": task_cfg,
        "eval": {"output_dir": str(output_dir), "progress": False, **eval_settings},
    }


def records_by_id(run_dir: Path) -> dict[str, dict[str, Any]]:
    """episodes.jsonl of a run keyed by episode id, without timing fields (which differ between runs)."""
    records = [json.loads(line) for line in (run_dir / "episodes.jsonl").read_text().splitlines()]
    return {r["episode_id"]: {k: v for k, v in r.items() if k not in TIMING_KEYS} for r in records}


@pytest.fixture
def make_config():
    return fake_config


CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
