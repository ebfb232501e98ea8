"""configs/sim/*.yaml presets load as EmbeddedSimConfig and turn into habitat-lab ObjectNav configs for both backends."""

from __future__ import annotations

import gzip
import json
from dataclasses import asdict
from pathlib import Path

import pytest

from tango.sim.config import EmbeddedSimConfig
from tango.sim.habitat_env import objectnav_config, sim_config_from_dict, split_of
from tests.support.presets import preset


@pytest.mark.parametrize("name", ["embedded", "habitat"])
def test_each_preset_loads_as_the_dataclass(name: str) -> None:
    values = preset("sim", name)
    assert set(values) == set(asdict(EmbeddedSimConfig()))
    assert sim_config_from_dict(values).backend == name


def test_unknown_settings_are_named() -> None:
    with pytest.raises(ValueError, match=r"unknown simulator setting\(s\) \['fov'\]"):
        sim_config_from_dict({"fov": 90})
    with pytest.raises(ValueError, match="sim.backend"):
        EmbeddedSimConfig(backend="unity")
    with pytest.raises(ValueError, match="thermal"):
        EmbeddedSimConfig(sensors=["rgb", "thermal"])


def _split_file(tmp_path: Path) -> Path:
    path = tmp_path / "objectnav" / "val" / "val.json.gz"
    path.parent.mkdir(parents=True)
    path.write_bytes(gzip.compress(json.dumps({"episodes": []}).encode()))
    return path


def test_split_pattern() -> None:
    assert split_of(Path("/d/objectnav/val/val.json.gz")) == ("/d/objectnav/{split}/{split}.json.gz", "val")
    assert split_of(Path("/d/val_seen.json.gz")) == ("/d/{split}.json.gz", "val_seen")


def test_embedded_backend_config(tmp_path: Path) -> None:
    sim = EmbeddedSimConfig(width=128, height=96, turn_angle=15.0, sensors=["rgb", "depth"])
    hab = objectnav_config(_split_file(tmp_path), tmp_path, sim, success_distance=0.5).habitat
    assert hab.simulator.type == "TangoSim-v0"
    assert hab.simulator.turn_angle == 15 and hab.simulator.navgrid_resolution == 0.05
    sensors = hab.simulator.agents.main_agent.sim_sensors
    assert set(sensors) == {"rgb_sensor", "depth_sensor"}
    assert (sensors.rgb_sensor.width, sensors.rgb_sensor.height, sensors.rgb_sensor.hfov) == (128, 96, 79)
    assert sensors.depth_sensor.normalize_depth is False and sensors.depth_sensor.max_depth == 5.0
    assert hab.task.actions.look_up.type == "TangoLookUpAction"
    assert hab.task.measurements.success.success_distance == 0.5
    assert hab.dataset.split == "val" and hab.dataset.scenes_dir == str(tmp_path)


def test_habitat_backend_config_keeps_habitat_sim(tmp_path: Path) -> None:
    values = preset("sim", "habitat")
    hab = objectnav_config(_split_file(tmp_path), tmp_path, sim_config_from_dict(values)).habitat
    assert hab.simulator.type == "Sim-v0"
    assert hab.simulator.scene_dataset.endswith("hm3d_annotated_basis.scene_dataset_config.json")
    assert hab.task.actions.look_up.type == "LookUpAction"
    sensors = hab.simulator.agents.main_agent.sim_sensors
    assert set(sensors) == {"rgb_sensor", "depth_sensor", "semantic_sensor"}
    assert list(sensors.depth_sensor.position) == [0.0, 0.88, 0.0]
    # Without a success_distance the benchmark's own scoring stays: 0.1 m to view points.
    assert hab.task.measurements.success.success_distance == 0.1
    assert hab.task.measurements.distance_to_goal.distance_to == "VIEW_POINTS"


def test_missing_dataset_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nothing.json.gz: ObjectNav dataset file not found"):
        objectnav_config(tmp_path / "nothing.json.gz")
