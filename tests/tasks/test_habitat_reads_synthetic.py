"""habitat-lab's own ObjectNav-v1 dataset class reads the synthetic ObjectNav files (same format as HM3D)."""

from __future__ import annotations

from pathlib import Path

from tango.formats import objectnav
from tango.habitat_compat import ensure_habitat_importable
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset


def test_habitat_objectnav_dataset_loads_synthetic_split(tmp_path: Path) -> None:
    root = tmp_path / "ds"
    generate_dataset(root, DatasetConfig(num_scenes=1, seed=11))
    ensure_habitat_importable()
    from habitat.config.default_structured_configs import DatasetConfig as HabitatDatasetConfig
    from habitat.datasets.object_nav.object_nav_dataset import ObjectNavDatasetV1
    from omegaconf import OmegaConf

    config = OmegaConf.structured(
        HabitatDatasetConfig(
            type="ObjectNav-v1",
            split="val",
            data_path=str(root / "objectnav" / "{split}" / "{split}.json.gz"),
            scenes_dir=str(root / "scenes"),
        )
    )
    habitat_episodes = ObjectNavDatasetV1(config).episodes
    ours = objectnav.load_episodes(root / "objectnav" / "val")
    assert len(habitat_episodes) == len(ours) > 0
    for theirs, mine in zip(habitat_episodes, ours, strict=True):
        assert theirs.scene_id == str(root / "scenes" / mine.scene_id)
        assert theirs.object_category == mine.object_category
        assert [g.object_id for g in theirs.goals] == [g.object_id for g in mine.goals]
        assert list(theirs.goals[0].view_points[0].agent_state.position) == list(
            mine.goals[0].view_points[0].agent_state.position
        )
