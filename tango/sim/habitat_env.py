"""Build habitat-lab ObjectNav configs and Envs that run on the embedded simulator (`TangoSim-v0`).

The config starts from habitat-lab's own `benchmark/nav/objectnav/objectnav_hm3d.yaml` and changes only the
simulator type, the camera/motion settings of `EmbeddedSimConfig`, the dataset paths and the look actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from hydra.core.global_hydra import GlobalHydra
from omegaconf import DictConfig, OmegaConf

from tango.config_utils import dataclass_from_dict
from tango.habitat_compat import ensure_habitat_importable
from tango.sim.config import EmbeddedSimConfig

ensure_habitat_importable()

import habitat
from habitat.config import read_write
from habitat.config.default_structured_configs import (
    HabitatSimSemanticSensorConfig,
    SimulatorConfig,
)
from habitat.core.simulator import Simulator
from habitat.sims import make_sim

import tango.sim.habitat_sim  # noqa: F401  (registers TangoSim-v0 and the Tango look actions)

OBJECTNAV_BENCHMARK = "benchmark/nav/objectnav/objectnav_hm3d.yaml"


@dataclass
class TangoSimulatorConfig(SimulatorConfig):
    """habitat-lab's SimulatorConfig plus the embedded simulator's own settings (read by TangoSim)."""

    type: str = "TangoSim-v0"
    navgrid_resolution: float = 0.05
    navgrid_obstacle_height: float = 1.5
    tilt_angle: float = 30.0


def split_of(data_path: Path) -> tuple[str, str]:
    """(data_path pattern with `{split}`, split) for a `.../{split}/{split}.json.gz` or `.../{split}.json.gz` file."""
    name = data_path.name
    if not name.endswith(".json.gz"):
        raise ValueError(f"{data_path}: an ObjectNav split file must end with .json.gz")
    split = name[: -len(".json.gz")]
    if data_path.parent.name == split:
        return str(data_path.parent.parent / "{split}" / "{split}.json.gz"), split
    return str(data_path.parent / "{split}.json.gz"), split


@contextmanager
def _beside_hydra() -> Iterator[None]:
    """habitat-lab composes its configs with its own hydra instance; inside `python -m tango.eval` (itself a
    hydra app) the global one is taken, so it is set aside for the call and put back after."""
    global_hydra = GlobalHydra.instance()
    saved = global_hydra.hydra
    global_hydra.clear()
    try:
        yield
    finally:
        global_hydra.hydra = saved


def habitat_benchmark_config(path: str = OBJECTNAV_BENCHMARK) -> DictConfig:
    """habitat-lab's own benchmark config (read-only DictConfig), callable from inside a hydra app."""
    with _beside_hydra():
        return habitat.get_config(path)


def objectnav_config(
    data_path: str | Path,
    scenes_dir: str | Path = "",
    sim: EmbeddedSimConfig | None = None,
    success_distance: float | None = None,
    max_episode_steps: int = 500,
    seed: int = 0,
) -> DictConfig:
    """habitat-lab's HM3D ObjectNav config, pointed at a dataset file and our simulator settings; on
    TangoSim-v0 for backend "embedded", on habitat-sim's Sim-v0 for backend "habitat". `success_distance`
    None keeps the benchmark's own (0.1 m to view points)."""
    sim = sim or EmbeddedSimConfig()
    path = Path(data_path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: ObjectNav dataset file not found")
    pattern, split = split_of(path)
    config = habitat_benchmark_config()
    with read_write(config):
        hab = config.habitat
        hab.seed = seed
        hab.environment.max_episode_steps = max_episode_steps
        hab.dataset.data_path = pattern
        hab.dataset.split = split
        hab.dataset.scenes_dir = str(scenes_dir)
        if success_distance is not None:
            hab.task.measurements.success.success_distance = success_distance
        for name in ("look_up", "look_down"):
            hab.task.actions[name].tilt_angle = _integral(sim.tilt_angle, "tilt_angle")
        if sim.backend == "embedded":
            hab.task.actions.look_up.type = "TangoLookUpAction"
            hab.task.actions.look_down.type = "TangoLookDownAction"
        hab.simulator = _simulator_section(hab.simulator, sim)
    return config


def _simulator_section(simulator: DictConfig, sim: EmbeddedSimConfig) -> DictConfig:
    """habitat-lab's simulator section with our motion, camera and agent settings (TangoSim-v0 when embedded)."""
    simulator.forward_step_size = sim.forward_step
    simulator.turn_angle = _integral(sim.turn_angle, "turn_angle")
    simulator.habitat_sim_v0.allow_sliding = sim.allow_sliding
    if sim.backend == "habitat":
        if sim.scene_dataset_config:
            simulator.scene_dataset = sim.scene_dataset_config
        _configure_agent(simulator.agents.main_agent, sim)
        return simulator
    simulator = cast(
        DictConfig,
        OmegaConf.merge(
            OmegaConf.structured(TangoSimulatorConfig), OmegaConf.to_container(simulator, resolve=False)
        ),
    )
    simulator.type = "TangoSim-v0"
    simulator.navgrid_resolution = sim.navgrid_resolution
    simulator.navgrid_obstacle_height = sim.navgrid_obstacle_height
    simulator.tilt_angle = sim.tilt_angle
    _configure_agent(simulator.agents.main_agent, sim)
    return simulator


def simulator_config(sim: EmbeddedSimConfig | None = None) -> DictConfig:
    """Only the simulator section (for agents that drive the simulator without a habitat-lab task)."""
    config = habitat_benchmark_config()
    with read_write(config):
        config.habitat.simulator = _simulator_section(config.habitat.simulator, sim or EmbeddedSimConfig())
    return cast(DictConfig, OmegaConf.create(OmegaConf.to_container(config.habitat.simulator, resolve=True)))


def make_simulator(config: DictConfig) -> Simulator:
    """A habitat-lab Simulator of `config.type` (TangoSim-v0 or habitat-sim's Sim-v0) from a simulator section."""
    return make_sim(id_sim=str(config.type), config=config)


def make_objectnav_env(
    data_path: str | Path,
    scenes_dir: str | Path = "",
    sim: EmbeddedSimConfig | None = None,
    success_distance: float | None = None,
    max_episode_steps: int = 500,
    seed: int = 0,
) -> habitat.Env:
    """habitat-lab's `Env` running ObjectNav episodes from `data_path` (on TangoSim-v0 unless sim.backend says
    habitat)."""
    config = objectnav_config(data_path, scenes_dir, sim, success_distance, max_episode_steps, seed)
    return habitat.Env(config=config)


def sim_config_from_dict(values: dict) -> EmbeddedSimConfig:
    """EmbeddedSimConfig from a (hydra) mapping such as configs/sim/*.yaml; unknown keys raise a ValueError."""
    return dataclass_from_dict(EmbeddedSimConfig, values, "simulator")


def _integral(value: float, name: str) -> int:
    if float(value) != int(value):
        raise ValueError(f"habitat-lab's {name} is an integer number of degrees, got {value}")
    return int(value)


def _configure_agent(agent: DictConfig, sim: EmbeddedSimConfig) -> None:
    agent.height = sim.agent_height
    agent.radius = sim.agent_radius
    sensors = agent.sim_sensors
    position = [0.0, sim.camera_height, 0.0]
    if "semantic" in sim.sensors and "semantic_sensor" not in sensors:
        sensors.semantic_sensor = OmegaConf.structured(HabitatSimSemanticSensorConfig())
    wanted = {"rgb_sensor": "rgb", "depth_sensor": "depth", "semantic_sensor": "semantic"}
    for key, kind in wanted.items():
        if key not in sensors:
            continue
        if kind not in sim.sensors:
            del sensors[key]
            continue
        sensor = sensors[key]
        sensor.width, sensor.height = sim.width, sim.height
        sensor.hfov = _integral(sim.hfov, "hfov")
        sensor.position = position
        if kind == "depth":
            sensor.min_depth, sensor.max_depth = sim.depth_min, sim.depth_max
            sensor.normalize_depth = sim.normalize_depth
