"""Point-goal training environments on the embedded simulator: depth and (rho, theta) in (and the agent's own
egocentric map for map-using policies), one of the four PointNav actions out, with a teacher's action as the
label of every step.

Two teachers: "map_fmm", the project's FMM controller planning on the obstacle map the agent builds from its
own depth (unknown cells free), i.e. on the information the policy has; and "geodesic", the oracle follower on
the scene's navigability grid (ground truth). Geodesic distances (rewards, success, SPL) read ground truth that
only training sees; the policy's inputs are the depth frame, the point goal in its own frame and its own map.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import MOVE_FORWARD, POINTNAV_ACTIONS, STOP
from tango.navigation.config import NavigationConfig
from tango.navigation.egocentric_map import egocentric_map
from tango.navigation.fmm_controller import FmmController, mark_blocked_step
from tango.navigation.pointnav_controller import polar_goal, policy_depth
from tango.navigation.train.config import TEACHERS, EpisodeSettings
from tango.scenes.datasets.pointnav import PointGoal, PointNavConfig, sample_point_goal
from tango.sim.config import EmbeddedSimConfig
from tango.sim.follower import OracleGeodesicFollower
from tango.sim.habitat_env import make_simulator, simulator_config
from tango.sim.habitat_sim import TangoSim
from tango.types.observation import Observation as AgentObservation
from tango.types.poses import yaw_to_quaternion

ACTION_INDEX = {name: index for index, name in enumerate(POINTNAV_ACTIONS)}


@dataclass
class Observation:
    """What the policy sees and what the teacher says: depth (S, S, 1) in [0, 1], goal (rho, theta), the
    egocentric map (M, M, C) when the environment builds one."""

    depth: np.ndarray
    goal: np.ndarray
    teacher: int
    map: np.ndarray | None = None


@dataclass
class EpisodeEnd:
    """How a finished episode scored (habitat-lab's success and SPL)."""

    success: float
    spl: float
    distance_to_goal: float
    steps: int


@dataclass
class Transition:
    """The result of one step: the next observation (of a new episode when `done`), reward and outcome."""

    observation: Observation
    reward: float
    done: bool
    ended: EpisodeEnd | None


class PointGoalEnv:
    """One simulator running point-goal episodes on `scenes`, changing scene every `episodes_per_scene`
    episodes; `episodes` fixes the episode list (validation), else episodes are sampled. `with_map` builds the
    agent's obstacle map every step and shows the policy its egocentric crop (the map_fmm teacher builds the
    map in any case)."""

    def __init__(
        self,
        scenes: list[Path],
        sim_config: EmbeddedSimConfig,
        depth_size: int,
        settings: EpisodeSettings,
        seed: int | list[int],
        episodes: list[tuple[Path, PointGoal]] | None = None,
        teacher: str = "map_fmm",
        with_map: bool = False,
    ) -> None:
        if teacher not in TEACHERS:
            raise ValueError(f"train.teacher must be one of {TEACHERS}, got {teacher!r}")
        self.scenes = scenes
        self.teacher = teacher
        self.with_map = with_map
        self._builds_map = with_map or teacher == "map_fmm"
        self._hfov = sim_config.hfov
        self.settings = settings
        self.depth_size = depth_size
        self.min_depth, self.max_depth = sim_config.depth_min, sim_config.depth_max
        self.rng = np.random.default_rng(seed)
        self._config = simulator_config(sim_config)
        self._sim: TangoSim | None = None
        self._scene: Path | None = None
        self._episodes = list(episodes) if episodes is not None else None
        self._sampling = PointNavConfig(
            closest_distance=settings.closest_distance, furthest_distance=settings.furthest_distance
        )
        self._episodes_here = 0
        self._running = False
        self.episode: PointGoal | None = None

    @staticmethod
    def sim_config(base: EmbeddedSimConfig, render_size: int) -> EmbeddedSimConfig:
        """The agent's camera and motion settings with only a depth sensor, rendered at render_size."""
        return replace(base, sensors=["depth"], width=render_size, height=render_size)

    @property
    def sim(self) -> TangoSim:
        if self._sim is None:
            raise RuntimeError("PointGoalEnv.reset() must come first")
        return self._sim

    def close(self) -> None:
        if self._sim is not None:
            self._sim.close()
            self._sim = None

    def _load(self, scene: Path) -> None:
        if scene == self._scene:
            return
        self._config.scene = str(scene)
        if self._sim is None:
            sim = make_simulator(self._config)
            assert isinstance(sim, TangoSim)
            self._sim = sim
        else:
            self._sim.reconfigure(self._config)
        self._scene = scene

    def _next_episode(self) -> PointGoal:
        if self._episodes is not None:
            scene, episode = self._episodes.pop(0)
            self._load(scene)
            return episode
        if self._scene is None or self._episodes_here >= self.settings.episodes_per_scene:
            self._load(self.scenes[int(self.rng.integers(len(self.scenes)))])
            self._episodes_here = 0
        self._episodes_here += 1
        for _ in range(10):
            sampled = sample_point_goal(self.sim.navgrid, self.rng, self._sampling)
            if sampled is not None:
                return sampled
        raise RuntimeError(f"{self._scene}: no point-goal episode could be sampled")

    def set_episodes(self, episodes: list[tuple[Path, PointGoal]]) -> None:
        """Run exactly these episodes from the next reset on (validation)."""
        self._episodes = list(episodes)

    @property
    def exhausted(self) -> bool:
        """True when a fixed episode list has been used up and its last episode has ended."""
        return self._episodes is not None and not self._episodes and not self._running

    def reset(self) -> Observation:
        """Start the next episode."""
        self.episode = self._next_episode()
        self._running = True
        sim = self.sim
        sim.set_agent_state(self.episode.start, yaw_to_quaternion(self.episode.yaw))
        self._follower = OracleGeodesicFollower(
            sim, [self.episode.goal.tolist()], self.settings.teacher_stop_distance
        )
        self._map = ObstacleMap() if self._builds_map else None
        self._planner = FmmController(NavigationConfig(), seed=int(self.rng.integers(2**31)))
        self._distance = self._follower.distance()
        self._best, self._since_best = self._distance, 0
        self._steps, self._path = 0, 0.0
        return self._observe(sim.get_observations_at())

    def _observe(self, raw: dict[str, Any]) -> Observation:
        """The policy's inputs and the teacher's label from the simulator's sensor dict."""
        sim = self.sim
        assert self.episode is not None
        depth = np.asarray(raw["depth"])[..., 0]
        frame = policy_depth(depth, self.min_depth, self.max_depth, self.depth_size)
        position = np.asarray(sim.get_agent_state().position, np.float64)
        yaw = sim.agent_yaw
        rho, theta = polar_goal(position, yaw, self.episode.goal)
        self._rho = rho
        if self._map is not None:
            self._map.update(
                AgentObservation(
                    rgb=np.zeros((1, 1, 3), np.uint8), depth=depth, camera_pose=sim.camera_pose(),
                    hfov_deg=self._hfov, agent_position=position, agent_yaw=yaw,
                )
            )  # fmt: skip
        if self.teacher == "map_fmm":
            assert self._map is not None
            stop = self.settings.teacher_stop_distance
            label = self._planner.act(position, yaw, self.episode.goal, self._map, stop)
        else:
            label = self._follower.next_action()
        crop = egocentric_map(self._map, position, yaw, rho, theta) if self.with_map and self._map else None
        self._last = Observation(
            frame[:, :, None], np.array([rho, theta], np.float32), ACTION_INDEX[label], crop
        )
        return self._last

    def step(self, action: int) -> Transition:
        """Apply an action index; within `stop_radius` of the goal (GPS) any action is a stop, as the
        controller's rule. An episode ends on stop, at max_steps or after `patience` steps without getting
        closer, and the environment then starts the next one."""
        sim = self.sim
        name = STOP if self._rho <= self.settings.stop_radius else POINTNAV_ACTIONS[action]
        before = np.asarray(sim.get_agent_state().position, np.float64)
        self._planner.executed(name)
        raw = sim.step(name) if name != STOP else None
        after = np.asarray(sim.get_agent_state().position, np.float64)
        blocked = float(np.linalg.norm(after - before)) < NavigationConfig().stuck_displacement
        if self._map is not None and name == MOVE_FORWARD and blocked:
            mark_blocked_step(self._map, after, sim.agent_yaw)
        self._path += float(np.linalg.norm(after - before))
        self._steps += 1
        previous, self._distance = self._distance, self._follower.distance(after)
        if self._distance < self._best - 0.01:
            self._best, self._since_best = self._distance, 0
        else:
            self._since_best += 1
        settings = self.settings
        success = name == STOP and self._distance <= settings.success_distance
        reward = previous - self._distance
        done = name == STOP or self._steps >= settings.max_steps or self._since_best >= settings.patience
        if not done:
            assert raw is not None
            return Transition(self._observe(raw), reward, False, None)
        assert self.episode is not None
        self._running = False
        shortest = self.episode.geodesic_distance
        spl = float(success) * shortest / max(self._path, shortest)
        ended = EpisodeEnd(float(success), spl, self._distance, self._steps)
        return Transition(self._last if self.exhausted else self.reset(), reward, True, ended)
