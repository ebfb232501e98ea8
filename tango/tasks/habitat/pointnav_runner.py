"""The PointNav runner: the agent's navigator drives to the episode's goal point with the configured controller.

Per step the navigator fuses the depth frame into its maps and asks its controller for an action toward the
goal (the GPS + compass information PointNav gives); STOP within `agent.navigation.point_goal_tolerance`. No
perception and no program: nothing reads ground truth except the measures (geodesic distances).
"""

from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from tango.agent.config import AgentConfig
from tango.agent.sim_session import SimSession
from tango.config_utils import dataclass_from_dict
from tango.formats.nav_episodes import resolve_scene_path
from tango.formats.pointnav import PointNavEpisode
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.navigation.actions import STOP
from tango.navigation.navigator import Navigator
from tango.sim.config import sensor_record
from tango.sim.habitat_env import sim_config_from_dict
from tango.tasks.flow import MalformedEpisode
from tango.tasks.habitat.runner import sensors_for
from tango.tasks.measures import navigation_metrics
from tango.trace.writer import Trace


class PointGoalRules(Protocol):
    """What the runner reads of the `task` section (tango.tasks.pointnav.PointNavTaskConfig)."""

    max_steps: int
    success_distance: float


class PointNavRunner:
    """One simulator and one navigator per worker; each episode resets the navigator's maps and controller."""

    def __init__(self, cfg: dict[str, Any], task: PointGoalRules, scenes_dir: Path) -> None:
        self.task = task
        self.sim_config = sensors_for(sim_config_from_dict(dict(cfg["sim"])), False)
        self.agent_config = dataclass_from_dict(AgentConfig, cfg.get("agent", {}), "agent")
        self.session = SimSession(self.sim_config)
        self.navigator = Navigator(self.agent_config)
        self.scenes_dir = scenes_dir

    def describe(self) -> dict[str, Any]:
        navigation = self.agent_config.navigation
        return {
            "perception": {
                "name": "none (the controller reads depth and the GPS + compass goal)",
                "oracle_components": [],
            },
            "generator": {"name": "none (no program)"},
            "controller": {"name": navigation.controller, **asdict(navigation)},
            "sim": asdict(self.sim_config),
            "sensors": sensor_record(self.sim_config),
            "success_distance": self.task.success_distance,
        }

    def close(self) -> None:
        self.session.close()

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        if isinstance(spec.payload, MalformedEpisode):
            raise spec.payload.problem
        episode: PointNavEpisode = spec.payload
        trace = Trace(ctx.trace_path)
        try:
            return self._run(episode, spec.instruction, ctx, trace)
        finally:
            trace.close()

    def _run(
        self, episode: PointNavEpisode, instruction: str, ctx: EpisodeContext, trace: Trace
    ) -> EpisodeResult:
        session, navigator = self.session, self.navigator
        scene = resolve_scene_path(episode.scene_id, self.scenes_dir)
        obs = session.start(scene, episode.start_position, episode.start_rotation)
        navigator.reset()
        goal = np.asarray(episode.goal_position, dtype=np.float64)
        start_distance = session.geodesic_distance(obs.agent_position, [goal])
        tolerance = self.agent_config.navigation.point_goal_tolerance
        trace.emit("start", scene=str(scene), goal=list(goal), geodesic_distance=start_distance)
        if ctx.frames.enabled:
            ctx.frames.add(obs.rgb, obs.depth, None, "start")
        steps, called_stop = 0, False
        map_seconds = controller_seconds = 0.0
        while steps < self.task.max_steps:
            began = time.perf_counter()
            navigator.update(obs)
            decided = time.perf_counter()
            action = navigator.next_action_to(goal, tolerance)
            map_seconds += decided - began
            controller_seconds += time.perf_counter() - decided
            steps += 1
            if action == STOP:
                called_stop = True
                break
            obs = session.step(action)
            if ctx.frames.enabled:
                ctx.frames.add(
                    obs.rgb, obs.depth, None, f"{action} (goal {navigator.remaining_distance:.2f} m)"
                )
        distance = session.geodesic_distance(obs.agent_position, [goal])
        metrics = navigation_metrics(
            distance, start_distance, start_distance, session.path_length, self.task.success_distance,
            called_stop,
        )  # fmt: skip
        metrics.update(
            path_length=session.path_length,
            called_stop=float(called_stop),
            controller_ms=1000.0 * controller_seconds / steps,
            map_ms=1000.0 * map_seconds / steps,
        )
        trace.emit("end", called_stop=called_stop, steps=steps, distance_to_goal=distance)
        return EpisodeResult(metrics=metrics, num_steps=steps, instruction=instruction, program_source="none")
