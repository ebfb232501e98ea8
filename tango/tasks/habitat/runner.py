"""One simulator, generator and interpreter per worker; each episode gets a fresh agent through `SimEpisode`.

The runner decides what the agent may know: it loads the scene's ground truth, and asks the simulator for the
semantic sensor, only when a configured perception component is a registered oracle.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from tango.agent.config import AgentConfig
from tango.agent.sim_session import SimSession
from tango.config_utils import dataclass_from_dict
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.perception.build import describe_config, oracle_components
from tango.perception.config import perception_config
from tango.perception.oracle.scene import OracleScene, load_oracle_scene
from tango.perception.registry import COMPONENTS
from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.factory import make_generator
from tango.programs.interpreter import Interpreter
from tango.sim.config import EmbeddedSimConfig, sensor_record
from tango.sim.habitat_env import sim_config_from_dict
from tango.sim.scene import annotation_path_for
from tango.tasks.flow import HabitatFlow, MalformedEpisode, dataset_paths
from tango.tasks.habitat.episode_run import SimEpisode
from tango.trace.writer import Trace

LOG = logging.getLogger(__name__)
SEMANTIC = "semantic"


def sensors_for(sim: EmbeddedSimConfig, needs_ground_truth: bool) -> EmbeddedSimConfig:
    """The simulator settings with the semantic sensor on only for oracle perception."""
    sensors = [name for name in sim.sensors if name != SEMANTIC]
    if needs_ground_truth:
        if SEMANTIC not in sim.sensors:
            raise ValueError("oracle perception components need the semantic sensor: add it to sim.sensors")
        sensors.append(SEMANTIC)
    return replace(sim, sensors=sensors)


class HabitatRunner:
    """Runs one benchmark's flow on one simulator; maps, memory and perception state are per episode."""

    def __init__(self, cfg: dict[str, Any], flow: HabitatFlow) -> None:
        self.flow = flow
        self.task = flow.task
        self.perception_config = perception_config(cfg["perception"])
        self.oracle_components = oracle_components(self.perception_config)
        self.rgb_on_demand = set(self.oracle_components) == set(COMPONENTS)
        """Only oracles perceive (they read instance ids, not pixels): each step's colour image is drawn only
        if something reads it (a video, a kept view a matcher looks at, the episode's last frame)."""
        self.sim_config = sensors_for(sim_config_from_dict(dict(cfg["sim"])), bool(self.oracle_components))
        self.agent_config = dataclass_from_dict(AgentConfig, cfg.get("agent", {}), "agent")
        self.generator_config = GeneratorConfig.from_mapping(cfg["generator"])
        self.generator = make_generator(self.generator_config)
        self.interpreter = Interpreter("habitat")
        self.session = SimSession(self.sim_config)
        self.scenes_dir = dataset_paths(self.task, flow.data_file)[1]
        self._scenes: dict[Path, OracleScene] = {}

    def describe(self) -> dict[str, Any]:
        generator = asdict(self.generator_config)
        generator.pop("api_key", None)
        return {
            "perception": describe_config(self.perception_config),
            "generator": generator,
            "controller": {
                "name": self.agent_config.navigation.controller,
                **asdict(self.agent_config.navigation),
                "exploration": {
                    **asdict(self.agent_config.explore),
                    "explored_method": self.agent_config.map.explored_method,
                },
            },
            "sim": asdict(self.sim_config),
            "sensors": sensor_record(self.sim_config),
            "success_distance": getattr(self.task, "success_distance", None),
        }

    def close(self) -> None:
        self.session.close()

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        if isinstance(spec.payload, MalformedEpisode):
            raise spec.payload.problem
        trace = Trace(ctx.trace_path)
        try:
            return self.flow.run(spec, SimEpisode(self, ctx, trace))
        finally:
            trace.close()

    def scene_truth(self, scene_path: Path) -> OracleScene | None:
        """The scene annotation when a perception component is an oracle (loaded once per scene), else None."""
        if not self.oracle_components:
            return None
        if scene_path not in self._scenes:
            self._scenes[scene_path] = load_oracle_scene(annotation_path_for(scene_path))
        return self._scenes[scene_path]
