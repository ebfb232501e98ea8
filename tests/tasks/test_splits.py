"""task.split on the synthetic default dataset: val and test are both reachable, an unknown split is named, and
a default dataset the entry point has not prepared is refused with the command that prepares it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tango.formats.fields import DatasetError
from tango.formats.synthetic import DEFAULT_NAME, FORMAT, STAMP_FILE
from tango.tasks.flow import dataset_paths
from tango.tasks.goat import GoatFlow, GoatTaskConfig
from tango.tasks.objectnav import ObjectNavTaskConfig
from tango.tasks.openeqa import OpenEQAFlow, OpenEQATaskConfig
from tango.tasks.ovon import OvonTaskConfig


@pytest.fixture
def fake_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))
    root = tmp_path / DEFAULT_NAME
    for task in ("objectnav", "ovon", "goat"):
        for split in ("val", "test"):
            (root / task / split).mkdir(parents=True)
            (root / task / split / f"{split}.json.gz").write_bytes(b"")
    for split in ("val", "test"):
        (root / "openeqa" / split).mkdir(parents=True)
        (root / "openeqa" / split / "open-eqa-v0.json").write_text("[]")
    (root / STAMP_FILE).write_text(json.dumps({"format": FORMAT}))
    return root


def test_every_habitat_task_defaults_to_val() -> None:
    for config in (ObjectNavTaskConfig(), OvonTaskConfig(), GoatTaskConfig(), OpenEQATaskConfig()):
        assert config.split == "val", type(config).__name__


def test_val_and_test_resolve_to_their_own_files(fake_default: Path) -> None:
    for split in ("val", "test"):
        data, scenes = dataset_paths(GoatTaskConfig(split=split), GoatFlow.data_file)
        assert data == fake_default / "goat" / split / f"{split}.json.gz"
        assert scenes == fake_default / "scenes"
        data, _ = dataset_paths(OpenEQATaskConfig(split=split), OpenEQAFlow.data_file)
        assert data == fake_default / "openeqa" / split / "open-eqa-v0.json"


def test_an_unknown_split_is_named_with_the_ones_there_are(fake_default: Path) -> None:
    with pytest.raises(DatasetError, match=r"task.split='val_unseen' is not a split .*\(it has: test, val\)"):
        dataset_paths(GoatTaskConfig(split="val_unseen"), GoatFlow.data_file)


def test_a_default_dataset_not_prepared_is_refused_with_the_fix(fake_default: Path) -> None:
    (fake_default / STAMP_FILE).unlink()
    with pytest.raises(
        DatasetError, match=r"not prepared: `python -m tango.eval` prepares it .*tango.scenes default"
    ):
        dataset_paths(GoatTaskConfig(), GoatFlow.data_file)
