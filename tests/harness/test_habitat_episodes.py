"""Episode source of the Habitat benchmarks over a one-apartment synthetic dataset (the real generator)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tango.harness.habitat_episodes import (
    UnknownTaskError,
    _unique_ids,
    habitat_failure_metrics,
    list_habitat_episodes,
)
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data") / "synthetic"
    generate_dataset(root, DatasetConfig(num_scenes=1, seed=0), overwrite=True)
    return root


def _task(name: str, path: Path, **extra: object) -> dict[str, object]:
    return {"name": name, "data_path": str(path), **extra}


@pytest.mark.parametrize(("name", "split"), [("objectnav", "val"), ("ovon", "val_unseen")])
def test_object_navigation_episodes_list_in_file_order(dataset: Path, name: str, split: str) -> None:
    specs = list_habitat_episodes(_task(name, dataset / name / split / f"{split}.json.gz"))
    assert specs and len({s.episode_id for s in specs}) == len(specs)
    assert all(s.instruction == s.payload.object_category and s.subtask_goal_types == () for s in specs)
    assert specs == list_habitat_episodes(_task(name, dataset / name / split / f"{split}.json.gz"))


def test_goat_episodes_carry_their_subtask_goal_types(dataset: Path) -> None:
    specs = list_habitat_episodes(_task("goat", dataset / "goat" / "val_unseen" / "val_unseen.json.gz"))
    assert specs
    for spec in specs:
        assert spec.subtask_goal_types == tuple(t.goal_type for t in spec.payload.tasks)
        assert set(spec.subtask_goal_types) <= {"object", "description", "image"}
        assert spec.instruction.count(";") == len(spec.subtask_goal_types) - 1


def test_openeqa_questions_become_episodes(dataset: Path) -> None:
    specs = list_habitat_episodes(_task("openeqa", dataset / "openeqa" / "open-eqa-v0.json"))
    assert specs and all(s.instruction == s.payload.question for s in specs)
    assert all(s.scene_id for s in specs)


def test_ids_repeating_across_scenes_are_prefixed_with_the_scene() -> None:
    assert _unique_ids(["0", "1"], ["a.glb", "a.glb"]) == ["0", "1"]
    assert _unique_ids(["0", "0"], ["x/a.basis.glb", "x/b.basis.glb"]) == ["a:0", "b:0"]


def test_failure_metrics_and_unknown_task() -> None:
    assert habitat_failure_metrics({"name": "goat"}) == {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}
    assert habitat_failure_metrics({"name": "openeqa", "judge": {"enabled": True}}) == {
        "normalised_match": 0.0,
        "llm_match": 0.0,
    }
    with pytest.raises(UnknownTaskError):
        list_habitat_episodes({"name": "fake"})
