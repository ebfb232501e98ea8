"""task=pointnav: PointNav-v1 files as habitat-lab reads them, habitat-lab's success / SPL rules, and both
controllers driving the episodes through the harness (the learned one with random-init weights)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import torch
from omegaconf import OmegaConf

from tango.formats.fields import EpisodeError
from tango.formats.pointnav import load_episodes, read_episodes
from tango.harness.run import run_evaluation
from tango.navigation.pointnav_checkpoint import checkpoint_dict
from tango.navigation.pointnav_small import SmallPointNavPolicy
from tests.agent.synthetic import data_path, eval_config, read_jsonl


def test_habitat_lab_reads_the_generated_split_as_ours_does(dataset_root: Path) -> None:
    from tango.habitat_compat import ensure_habitat_importable

    ensure_habitat_importable()
    from habitat.datasets.pointnav.pointnav_dataset import PointNavDatasetV1

    split = data_path(dataset_root, "pointnav")
    ours = load_episodes(split)
    config = OmegaConf.create(
        {"data_path": str(split.parent.parent / "{split}" / "{split}.json.gz"), "split": "val",
         "scenes_dir": str(dataset_root / "scenes"), "content_scenes": ["*"]}
    )  # fmt: skip
    theirs = PointNavDatasetV1(config).episodes
    assert len(ours) == len(theirs) == 3
    for mine, habitat in zip(ours, theirs, strict=True):
        assert habitat.scene_id.endswith(mine.scene_id)
        assert list(habitat.goals[0].position) == pytest.approx(list(mine.goal_position))
        assert habitat.goals[0].radius == 0.2
        assert habitat.info["geodesic_distance"] == pytest.approx(mine.geodesic_distance)
        assert mine.geodesic_distance is not None and 1.0 <= mine.geodesic_distance <= 30.0


def test_a_malformed_episode_is_named_and_the_others_load(tmp_path: Path, dataset_root: Path) -> None:
    content = data_path(dataset_root, "pointnav").parent / "content" / "apt_000.json.gz"
    data = json.loads(gzip.decompress(content.read_bytes()))
    data["episodes"][1]["goals"] = []
    folder = tmp_path / "val"
    (folder / "content").mkdir(parents=True)
    (folder / "val.json.gz").write_bytes(gzip.compress(b'{"episodes": []}'))
    (folder / "content" / "apt_000.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
    loaded = read_episodes(folder)
    assert len(loaded.episodes) == 2 and len(loaded.problems) == 1
    assert "goals: must be a non-empty list" in str(loaded.problems[0])
    with pytest.raises(EpisodeError, match="episode 1"):
        loaded.strict()


def test_fmm_controller_reaches_the_point_goals_by_habitat_labs_rules(
    tmp_path: Path, dataset_root: Path
) -> None:
    out = tmp_path / "fmm"
    run_evaluation(eval_config(dataset_root, "pointnav", out, "agent.navigation.controller=fmm"))
    records = read_jsonl(out / "episodes.jsonl")
    assert len(records) == 3 and all(r["failure_reason"] is None for r in records)
    for record in records:
        metrics = record["metrics"]
        assert metrics["success"] == float(
            metrics["called_stop"] == 1.0 and metrics["distance_to_goal"] <= 0.2
        )
        assert 0.0 <= metrics["spl"] <= metrics["success"]
        assert metrics["controller_ms"] > 0 and record["program_source"] == "none"
    assert sum(r["metrics"]["success"] for r in records) >= 2
    summary = json.loads((out / "summary.json").read_text())
    assert summary["oracle_components"] == []
    assert summary["sensor_presets"] == ["fast"] and records[0]["sensors"]["preset"] == "fast"


def test_random_init_pointnav_policy_runs_the_episodes_within_the_step_limit(
    tmp_path: Path, dataset_root: Path
) -> None:
    torch.manual_seed(0)
    checkpoint = tmp_path / "random_small.pth"
    torch.save(checkpoint_dict(SmallPointNavPolicy(), {}, {}), checkpoint)
    out = tmp_path / "pointnav"
    overrides = ("agent.navigation.controller=pointnav", f"agent.navigation.pointnav_checkpoint={checkpoint}",
                 "task.max_steps=40")  # fmt: skip
    run_evaluation(eval_config(dataset_root, "pointnav", out, *overrides))
    records = read_jsonl(out / "episodes.jsonl")
    assert len(records) == 3 and all(r["failure_reason"] is None for r in records)
    assert all(1 <= r["num_steps"] <= 40 for r in records)
    assert all(r["metrics"]["success"] in (0.0, 1.0) for r in records)
