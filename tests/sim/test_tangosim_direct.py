"""TangoSim driven without a habitat-lab task, on a scene without annotations (as an HM3D GLB would be)."""

from __future__ import annotations

import numpy as np
import pytest
from omegaconf import open_dict

from tango.sim.config import EmbeddedSimConfig
from tango.sim.habitat_env import make_simulator, simulator_config
from tango.sim.scene import SceneError
from tests.sim.builders import write_room


def _config(scene: str):
    config = simulator_config(EmbeddedSimConfig(width=64, height=48))
    with open_dict(config):
        config.scene = scene
        agent = config.agents.main_agent
        agent.is_set_start_state = True
        agent.start_position = [-2.0, 0.0, -2.0]
        agent.start_rotation = [0.0, 0.0, 0.0, 1.0]  # facing -z, the north wall 1 m ahead
    return config


def test_unannotated_scene_navigates_with_zero_semantics(tmp_path) -> None:
    glb = write_room(tmp_path)
    (tmp_path / "room_000.annotations.json").unlink()
    sim = make_simulator(_config(str(glb)))
    obs = sim.reset()
    assert sim.scene_annotations is None
    assert obs["rgb"].shape == (48, 64, 3) and (obs["semantic"] == 0).all()
    assert obs["depth"][24, 32, 0] == pytest.approx(1.0, abs=0.01)
    assert sim.navgrid.floor_y == pytest.approx(0.0, abs=0.01)
    obs = sim.step("move_forward")
    assert obs["depth"][24, 32, 0] == pytest.approx(0.75, abs=0.01)
    assert np.allclose(sim.get_agent_state().position, [-2.0, 0.0, -2.25])
    pose = sim.camera_pose()
    assert np.allclose(pose[:3, 3], [-2.0, 0.88, -2.25]) and np.allclose(pose[:3, 2], [0.0, 0.0, 1.0])
    sim.close()


def test_missing_scene_file_is_named(tmp_path) -> None:
    with pytest.raises(SceneError, match="absent.glb: scene file not found"):
        make_simulator(_config(str(tmp_path / "absent.glb")))
