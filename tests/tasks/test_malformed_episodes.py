"""A malformed episode fails alone, named by file, episode and field, and the run goes on; task.strict=true
refuses the whole file at start."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from tango.formats.fields import EpisodeError
from tango.harness.run import run_evaluation
from tango.tasks.flow import MalformedEpisode
from tests.agent.synthetic import TASK_SPLITS, eval_config, plugin, read_jsonl


def _broken_objectnav(dataset_root: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    """A copy of the tiny dataset whose second ObjectNav episode starts at NaN; returns (root, content, id)."""
    root = tmp_path / "data"
    shutil.copytree(dataset_root, root)
    content = root / "objectnav" / TASK_SPLITS["objectnav"] / "content" / "apt_000.json.gz"
    with gzip.open(content, "rt") as fh:
        data = json.load(fh)
    assert len(data["episodes"]) >= 2
    data["episodes"][1]["start_position"][0] = float("nan")
    with gzip.open(content, "wt") as fh:
        json.dump(data, fh)
    return root, content, str(data["episodes"][1]["episode_id"])


def test_strict_refuses_the_file_and_names_episode_and_field(dataset_root: Path, tmp_path: Path) -> None:
    root, content, episode_id = _broken_objectnav(dataset_root, tmp_path)
    strict = eval_config(root, "objectnav", tmp_path / "out", "task.strict=true")
    with pytest.raises(EpisodeError) as refused:
        plugin("objectnav").list_episodes(strict)
    assert str(refused.value).startswith(
        f"{content}: episode 1 (episode_id '{episode_id}'): start_position: "
    )
    specs = plugin("objectnav").list_episodes(eval_config(root, "objectnav", tmp_path / "out"))
    malformed = [s for s in specs if isinstance(s.payload, MalformedEpisode)]
    assert [s.episode_id for s in malformed] == [episode_id]
    assert malformed[0].scene_id == "apt_000.glb"


def test_malformed_episode_is_an_error_record_and_the_run_completes(
    dataset_root: Path, tmp_path: Path
) -> None:
    root, content, episode_id = _broken_objectnav(dataset_root, tmp_path)
    out = tmp_path / "run"
    run_evaluation(eval_config(root, "objectnav", out, "task.max_steps=10"))
    records = {r["episode_id"]: r for r in read_jsonl(out / "episodes.jsonl")}
    summary = json.loads((out / "summary.json").read_text())
    broken = records[episode_id]
    assert broken["status"] == "error" and broken["metrics"]["success"] == 0.0
    assert f"{content}: episode 1 (episode_id '{episode_id}'): start_position:" in broken["failure_reason"]
    assert all(r["status"] == "ok" for k, r in records.items() if k != episode_id) and len(records) >= 2
    assert summary["complete"] is True and summary["num_errors"] == 1
