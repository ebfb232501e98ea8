"""One habitat-lab Simulator (TangoSim-v0 or habitat-sim) driven by the agent: episode starts, actions, observations.

The session turns the simulator's sensor dict into an `Observation` in the episode frame, tracks the camera
pitch and the distance walked, and answers geodesic queries for the measures. It hides which backend runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from omegaconf import DictConfig

from tango.sim.config import EmbeddedSimConfig
from tango.sim.habitat_env import make_simulator, simulator_config
from tango.types.observation import Observation
from tango.types.poses import camera_pose, quaternion_to_yaw

TILT_LIMIT_DEG = 90.0
Point = Sequence[float] | np.ndarray


class SimSession:
    """The simulator of one worker; `start` loads a scene and pose, `step` acts and returns what the agent sees."""

    def __init__(self, sim_config: EmbeddedSimConfig) -> None:
        self.config = sim_config
        self._habitat_config: DictConfig = simulator_config(sim_config)
        self._sim: Any = None
        self.pitch_deg = 0.0
        self.path_length = 0.0
        self.last_collided = False
        self.defer_rgb = False
        """Ask the simulator to draw each step's colour image only when something reads `Observation.rgb`
        (where the backend can: TangoSim); set it when the configured components read no pixels."""

    @property
    def simulator(self) -> Any:
        """The habitat-lab Simulator (started by the first `start`)."""
        if self._sim is None:
            raise RuntimeError("SimSession.start(scene, ...) must come before anything else")
        return self._sim

    def start(self, scene: Path, position: Point, rotation: Point) -> Observation:
        """Load `scene` (reused when unchanged), place the agent, reset the pitch and the distance walked."""
        config = self._habitat_config.copy()
        config.scene = str(scene)
        agent = config.agents[config.agents_order[config.default_agent_id]]
        agent.is_set_start_state = True
        agent.start_position = [float(v) for v in position]
        agent.start_rotation = [float(v) for v in rotation]
        if self._sim is None:
            self._sim = make_simulator(config)
        else:
            self._sim.reconfigure(config)
        raw = self._deferring(self._sim.reset)
        self.pitch_deg = 0.0
        self.path_length = 0.0
        self.last_collided = False
        return self._observation(raw)

    def step(self, action: str) -> Observation:
        """Apply one discrete action; the distance moved is added to `path_length`."""
        before = self.position()
        raw = self._deferring(lambda: self.simulator.step(action))
        if action == "look_up":
            self.pitch_deg = min(self.pitch_deg + self.config.tilt_angle, TILT_LIMIT_DEG)
        elif action == "look_down":
            self.pitch_deg = max(self.pitch_deg - self.config.tilt_angle, -TILT_LIMIT_DEG)
        self.path_length += float(np.linalg.norm(self.position() - before))
        self.last_collided = bool(self.simulator.previous_step_collided)
        return self._observation(raw)

    def render_at(self, position: Point, rotation: Point) -> tuple[np.ndarray, np.ndarray | None]:
        """RGB and instance ids (None without a semantic sensor) seen level from another pose (image goals are
        given as such renders); the agent does not move and its camera tilt is restored."""
        tilts = round(self.pitch_deg / self.config.tilt_angle)
        level, back = ("look_down", "look_up") if tilts > 0 else ("look_up", "look_down")
        for _ in range(abs(tilts)):
            self.simulator.step(level)
        raw = self.simulator.get_observations_at(list(position), _quaternion(rotation), False)
        for _ in range(abs(tilts)):
            self.simulator.step(back)
        rgb = np.asarray(raw["rgb"])[..., :3]
        semantic = raw.get("semantic")
        return rgb, None if semantic is None else np.asarray(semantic, dtype=np.int32).reshape(rgb.shape[:2])

    def render_view(
        self, position: Point, rotation: Point, size: tuple[int, int], hfov_deg: float
    ) -> tuple[np.ndarray, np.ndarray | None] | None:
        """RGB and instance ids (None without a semantic sensor) of a camera at `position` with its own size
        (width, height) and field of view; None when the simulator cannot place such a camera (habitat-sim here)."""
        render = getattr(self.simulator, "render_view", None)
        if render is None:
            return None
        frame = render(list(position), list(rotation), size, hfov_deg)
        return frame.rgb, frame.semantic

    def position(self) -> np.ndarray:
        return np.asarray(self.simulator.get_agent_state().position, dtype=np.float64)

    def yaw(self) -> float:
        rotation = self.simulator.get_agent_state().rotation
        return quaternion_to_yaw(np.array([rotation.x, rotation.y, rotation.z, rotation.w], dtype=np.float64))

    def geodesic_distance(self, start: Point, goals: Sequence[Point]) -> float:
        """Shortest navigable distance from `start` to the nearest of `goals` (inf when none is reachable)."""
        if not goals:
            return float("inf")
        return float(self.simulator.geodesic_distance(list(start), [list(g) for g in goals]))

    def scene_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(lower, upper) corners of the scene's navigable area (its navmesh or navigability grid)."""
        lower, upper = self.simulator.pathfinder.get_bounds()
        return np.array(list(lower), dtype=np.float64), np.array(list(upper), dtype=np.float64)

    def close(self) -> None:
        if self._sim is not None:
            self._sim.close()
            self._sim = None

    def _deferring(self, observe: Callable[[], Any]) -> Any:
        """`observe()` with the simulator deferring colour images as `defer_rgb` says (if it can)."""
        if not hasattr(self.simulator, "defer_rgb"):
            return observe()
        self.simulator.defer_rgb = self.defer_rgb
        try:
            return observe()
        finally:
            self.simulator.defer_rgb = False

    def _observation(self, raw: dict[str, Any]) -> Observation:
        position = self.position()
        yaw = self.yaw()
        depth = np.asarray(raw["depth"], dtype=np.float32)
        semantic = raw.get("semantic")
        rgb = raw["rgb"]
        fields: dict[str, Any] = {
            "depth": depth[..., 0] if depth.ndim == 3 else depth,
            "camera_pose": camera_pose(position, yaw, np.deg2rad(self.pitch_deg), self.config.camera_height),
            "hfov_deg": self.config.hfov,
            "agent_position": position,
            "agent_yaw": yaw,
            "semantic": None
            if semantic is None
            else np.asarray(semantic, dtype=np.int32).reshape(depth.shape[:2]),
            "depth_clip": None if self.config.normalize_depth else self.config.depth_max,
        }
        if callable(rgb):  # deferred by the simulator
            return Observation.with_deferred_rgb(lambda: np.asarray(rgb())[..., :3], **fields)
        return Observation(rgb=np.asarray(rgb)[..., :3], **fields)


def _quaternion(rotation: Point) -> Any:
    """[x, y, z, w] as the numpy-quaternion habitat-lab's simulators take."""
    import quaternion

    x, y, z, w = (float(v) for v in rotation)
    return quaternion.quaternion(w, x, y, z)
