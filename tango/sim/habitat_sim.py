"""`TangoSim-v0`: the embedded simulator behind habitat-lab's own Env, tasks, sensors and measures.

It reads habitat-lab's simulator config (scene, forward_step_size, turn_angle, habitat_sim_v0.allow_sliding, the
agent's radius, start state and sim_sensors) plus, when present (tango.sim.habitat_env.TangoSimulatorConfig),
navgrid_resolution, navgrid_obstacle_height and tilt_angle. Rendering is `tango.sim.render`, navigability and geodesics `tango.sim.navgrid`.
habitat-lab's LookUp/LookDown actions rotate habitat-sim scene nodes through magnum, so TangoSim registers its
own `TangoLookUpAction` / `TangoLookDownAction` task actions (tango.sim.habitat_env configures them).
Its cameras and habitat-lab sensors are `tango.sim.habitat_sensors`, its PathFinder `tango.sim.habitat_pathfinder`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import quaternion

from tango.habitat_compat import ensure_habitat_importable

ensure_habitat_importable()

from gym import spaces
from habitat.core.embodied_task import SimulatorTaskAction
from habitat.core.registry import registry
from habitat.core.simulator import (
    AgentState,
    Observations,
    SensorSuite,
    Simulator,
)
from omegaconf import DictConfig, OmegaConf

from tango.sim.habitat_pathfinder import TangoPathFinder
from tango.sim.habitat_sensors import Camera, TangoSimError, build_cameras
from tango.sim.navgrid import NavGrid, NavGridConfig
from tango.sim.render import Frame, create_gl_context
from tango.sim.scene import LoadedScene, load_scene, world_triangles
from tango.sim.views import ViewRenderers, view_pose
from tango.types.poses import camera_pose, forward_vector, quaternion_to_yaw, yaw_rotation
from tango.types.scene import SceneAnnotations

LOG = logging.getLogger(__name__)

# habitat-lab's HabitatSimActions numbering (habitat/sims/habitat_simulator/actions.py).
ACTION_NAMES = ("stop", "move_forward", "turn_left", "turn_right", "look_up", "look_down")
_MAX_PITCH = np.deg2rad(90.0)
_FLOOR_MATCH = 0.3


@registry.register_simulator(name="TangoSim-v0")
class TangoSim(Simulator):
    """habitat-lab Simulator over GLB scenes: moderngl rendering, grid navigability, FMM geodesics."""

    habitat_config: Any

    def __init__(self, config: DictConfig) -> None:
        self.habitat_config = config
        self.rng = np.random.default_rng(int(config.get("seed", 0)))
        self._ctx = create_gl_context()
        self._scene: LoadedScene | None = None
        self._triangles: np.ndarray | None = None
        self._grids: list[NavGrid] = []
        self._grid: NavGrid | None = None
        self._cameras: list[Camera] = []
        self._views = ViewRenderers(self._ctx)
        self._sensor_key: str | None = None
        self._sensor_suite = SensorSuite([])
        self._position = np.zeros(3)
        self._yaw = 0.0
        self._pitch = 0.0
        self._collided = False
        self._prev_sim_obs: dict[str, Any] = {}
        self.defer_rgb = False
        """Observations carry the rgb image as a DeferredRGB (drawn when called) instead of the array, which
        spares the colour shading of every frame whose image nobody reads."""
        self.pathfinder = TangoPathFinder(self)
        self._apply_config(config)

    # --- configuration ---------------------------------------------------------------------------------------

    @property
    def _agent_config(self) -> Any:
        agents = self.habitat_config.agents
        order = self.habitat_config.get("agents_order") or list(agents.keys())
        return agents[order[self.habitat_config.get("default_agent_id", 0)]]

    def _extra(self, key: str, default: float) -> float:
        return float(self.habitat_config[key]) if key in self.habitat_config else default

    def _apply_config(self, config: DictConfig) -> None:
        self.habitat_config = config
        self.forward_step = float(config.forward_step_size)
        self.turn_angle = np.deg2rad(float(config.turn_angle))
        self.tilt_angle = np.deg2rad(self._extra("tilt_angle", 30.0))
        self.allow_sliding = bool(config.habitat_sim_v0.get("allow_sliding", True))
        scene_path = Path(str(config.scene))
        if self._scene is None or self._scene.glb_path != scene_path:
            self._load_scene(scene_path)
        sensor_config = OmegaConf.to_container(self._agent_config.sim_sensors, resolve=True)
        key = repr(sensor_config)
        if key != self._sensor_key:
            self._build_cameras()
            self._sensor_key = key

    def _load_scene(self, path: Path) -> None:
        for camera in self._cameras:
            camera.renderer.release()
        self._views.release()
        self._cameras, self._sensor_key = [], None
        self._scene = load_scene(path)
        self._triangles = world_triangles(self._scene.mesh)
        self._grids, self._grid = [], None  # built on first use, for the floor the episode starts on
        LOG.info("loaded scene %s (%d triangles)", path, len(self._triangles))

    def _grid_at(self, floor_y: float | None) -> NavGrid:
        """The navigability grid of the floor at height floor_y (the annotated or else the main floor when None),
        built once per floor."""
        if floor_y is None and self.scene.annotations is not None:
            floor_y = self.scene.annotations.floor_y
        for grid in self._grids:
            if floor_y is None or abs(grid.floor_y - floor_y) <= _FLOOR_MATCH:
                return grid
        agent = self._agent_config
        config = NavGridConfig(
            resolution=self._extra("navgrid_resolution", 0.05),
            agent_radius=float(agent.radius),
            agent_height=max(float(agent.height), self._extra("navgrid_obstacle_height", 1.5)),
        )
        assert self._triangles is not None
        grid = NavGrid.from_triangles(self._triangles, config, floor_y)
        self._grids.append(grid)
        return grid

    def _build_cameras(self) -> None:
        for camera in self._cameras:
            camera.renderer.release()
        self._cameras, sensors = build_cameras(self._agent_config.sim_sensors, self.scene.mesh, self._ctx)
        self._sensor_suite = SensorSuite(sensors)

    # --- habitat-lab Simulator API ---------------------------------------------------------------------------

    @property
    def sensor_suite(self) -> SensorSuite:
        return self._sensor_suite

    @property
    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(len(ACTION_NAMES))

    @property
    def navgrid(self) -> NavGrid:
        """The navigability grid of the floor the agent is on."""
        if self._grid is None:
            self._grid = self._grid_at(None)
        return self._grid

    @property
    def scene(self) -> LoadedScene:
        """The loaded scene (GLB and annotations)."""
        if self._scene is None:
            raise TangoSimError("no scene loaded")
        return self._scene

    @property
    def scene_annotations(self) -> SceneAnnotations | None:
        """Object and room annotations of the current scene (None for e.g. HM3D GLBs)."""
        return self.scene.annotations

    def reconfigure(
        self, config: DictConfig, ep_info: Any = None, should_close_on_new_scene: bool = True
    ) -> None:
        self._apply_config(config)

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self) -> Observations:
        agent = self._agent_config
        if agent.is_set_start_state:
            position = np.asarray(agent.start_position, dtype=np.float64)
            self._grid = self._grid_at(None if self.scene.annotations else float(position[1]))
            self._set_pose(position, quaternion_to_yaw(np.asarray(agent.start_rotation, dtype=np.float64)))
        else:
            self._set_pose(
                self.navgrid.sample_navigable_point(self.rng), float(self.rng.uniform(-np.pi, np.pi))
            )
        self._collided = False
        self._pitch = 0.0
        return self._observe()

    def step(self, action: Any, *args: Any, **kwargs: Any) -> Observations:
        self._collided = False
        if action is not None:
            name = ACTION_NAMES[int(action)] if isinstance(action, (int, np.integer)) else str(action)
            self._apply_action(name)
        return self._observe()

    def step_physics(self, dt: float) -> None:
        """No dynamics: actions act immediately."""

    def get_agent_state(self, agent_id: int = 0) -> AgentState:
        half = self._yaw / 2.0
        return AgentState(
            position=self._position.astype(np.float32),
            rotation=quaternion.quaternion(np.cos(half), 0.0, np.sin(half), 0.0),
        )

    def set_agent_state(
        self,
        position: Sequence[float] | np.ndarray,
        rotation: Any,
        agent_id: int = 0,
        reset_sensors: bool = True,
    ) -> bool:
        self._set_pose(np.asarray(position, dtype=np.float64), _yaw_of(rotation))
        if reset_sensors:
            self._pitch = 0.0
        return True

    def get_observations_at(
        self,
        position: Sequence[float] | None = None,
        rotation: Any = None,
        keep_agent_at_new_pose: bool = False,
    ) -> Observations:
        saved = (self._position.copy(), self._yaw, self._pitch)
        if position is not None or rotation is not None:
            self.set_agent_state(
                self._position if position is None else position,
                quaternion.quaternion(np.cos(self._yaw / 2), 0.0, np.sin(self._yaw / 2), 0.0)
                if rotation is None
                else rotation,
                reset_sensors=False,
            )
        observations = self._observe()
        if not keep_agent_at_new_pose:
            self._position, self._yaw, self._pitch = saved
        return observations

    def geodesic_distance(
        self, position_a: Sequence[float] | np.ndarray, position_b: Any, episode: Any = None
    ) -> float:
        first = position_b[0]
        goals = list(position_b) if isinstance(first, (Sequence, np.ndarray)) else [position_b]
        return self.navgrid.geodesic_distance(
            np.asarray(position_a, np.float64), [np.asarray(g, np.float64) for g in goals]
        )

    def sample_navigable_point(self) -> list[float]:
        return [float(v) for v in self.navgrid.sample_navigable_point(self.rng)]

    def is_navigable(self, point: Sequence[float]) -> bool:
        return self.pathfinder.is_navigable(point)

    def distance_to_closest_obstacle(self, point: Sequence[float], max_search_radius: float = 2.0) -> float:
        """Distance to the nearest non-navigable cell (capped), as habitat-sim's navmesh query."""
        grid = self.navgrid
        cells = int(np.ceil(max_search_radius / grid.resolution))
        row, col = grid.cell_of(np.asarray(point, np.float64))
        rows, cols = np.mgrid[row - cells : row + cells + 1, col - cells : col + cells + 1]
        inside = (
            (rows >= 0) & (rows < grid.navigable.shape[0]) & (cols >= 0) & (cols < grid.navigable.shape[1])
        )
        blocked = ~inside
        blocked[inside] = ~grid.navigable[rows[inside], cols[inside]]
        if not blocked.any():
            return max_search_radius
        distances = np.hypot(rows - row, cols - col)[blocked] * grid.resolution
        return float(min(distances.min(), max_search_radius))

    @property  # habitat-lab's measures read it as an attribute, as HabitatSim's property
    def previous_step_collided(self) -> bool:  # type: ignore[override]
        return self._collided

    @property
    def up_vector(self) -> np.ndarray:
        return np.array([0.0, 1.0, 0.0])

    @property
    def forward_vector(self) -> np.ndarray:
        return np.array([0.0, 0.0, -1.0])

    def render(self, mode: str = "rgb") -> Any:
        return self._observe().get(mode)

    def close(self, destroy: bool = True) -> None:
        for camera in self._cameras:
            camera.renderer.release()
        self._cameras = []
        self._views.release()
        self._ctx.release()

    # --- tango extensions ------------------------------------------------------------------------------------

    @property
    def agent_yaw(self) -> float:
        """Heading in radians (0 looks along -z, positive turns left)."""
        return self._yaw

    @property
    def camera_pitch(self) -> float:
        """Camera tilt in radians from look_up / look_down (positive looks up)."""
        return self._pitch

    def render_view(
        self,
        position: Sequence[float],
        rotation_xyzw: Sequence[float],
        size: tuple[int, int],
        hfov_deg: float,
    ) -> Frame:
        """RGB, and instance ids when the agent's cameras carry a semantic sensor, from a camera placed at
        `position` (not the agent's) with its own size (width, height) and field of view; the agent does not move."""
        semantic = any("semantic" in camera.uuids for camera in self._cameras)
        sensors = ("rgb", "semantic") if semantic else ("rgb",)
        pose = view_pose(position, rotation_xyzw)
        return self._views.render(self.scene.mesh, pose, size, hfov_deg, sensors)

    def camera_pose(self, camera_index: int = 0) -> np.ndarray:
        """4x4 world-from-camera of a camera (OpenGL convention), for the agent's Observation."""
        camera = self._cameras[camera_index]
        pose = camera_pose(self._position, self._yaw, self._pitch + camera.mount_pitch)
        pose[:3, 3] += yaw_rotation(self._yaw) @ camera.offset
        return pose

    def tilt_camera(self, angle_rad: float) -> None:
        """Look up (positive) or down, clamped to +-90 degrees."""
        self._pitch = float(np.clip(self._pitch + angle_rad, -_MAX_PITCH, _MAX_PITCH))

    def try_move(self, start: np.ndarray, target: np.ndarray, allow_sliding: bool) -> tuple[np.ndarray, bool]:
        """Where a straight move ends and whether it was blocked; blocked moves never pass through obstacles.

        With sliding, a blocked move keeps its longest navigable axis-aligned component (along the wall)."""
        grid = self.navgrid
        start = np.array([start[0], grid.floor_y, start[2]])
        target = np.array([target[0], grid.floor_y, target[2]])
        if grid.segment_navigable(start, target):
            return target, False
        if allow_sliding:
            delta = target - start
            slides = [np.array([delta[0], 0.0, 0.0]), np.array([0.0, 0.0, delta[2]])]
            for slide in sorted(slides, key=lambda v: -float(np.linalg.norm(v))):
                if np.linalg.norm(slide) > 1e-6 and grid.segment_navigable(start, start + slide):
                    return start + slide, True
        return start, True

    # --- internals -------------------------------------------------------------------------------------------

    def _apply_action(self, name: str) -> None:
        if name == "move_forward":
            target = self._position + forward_vector(self._yaw) * self.forward_step
            self._position, self._collided = self.try_move(self._position, target, self.allow_sliding)
        elif name == "turn_left":
            self._yaw = _wrap(self._yaw + self.turn_angle)
        elif name == "turn_right":
            self._yaw = _wrap(self._yaw - self.turn_angle)
        elif name == "look_up":
            self.tilt_camera(self.tilt_angle)
        elif name == "look_down":
            self.tilt_camera(-self.tilt_angle)
        elif name != "stop":
            raise TangoSimError(f"unknown action {name!r}; known: {list(ACTION_NAMES)}")

    def _set_pose(self, position: np.ndarray, yaw: float) -> None:
        self._position = np.asarray(position, dtype=np.float64).copy()
        self._yaw = _wrap(yaw)

    def _observe(self) -> Observations:
        sim_obs: dict[str, Any] = {"collided": self._collided}
        for index, camera in enumerate(self._cameras):
            pose = self.camera_pose(index)
            if self.defer_rgb and "rgb" in camera.uuids:
                frame = camera.renderer.render(pose, [name for name in camera.uuids if name != "rgb"])
                sim_obs[camera.uuids["rgb"]] = camera.renderer.deferred_rgb(pose)
            else:
                frame = camera.renderer.render(pose)
            if frame.rgb is not None:
                sim_obs[camera.uuids["rgb"]] = frame.rgb
            if frame.depth is not None:
                depth = frame.depth
                if camera.normalize_depth:
                    renderer = camera.renderer
                    depth = (depth - renderer.depth_min) / (renderer.depth_max - renderer.depth_min)
                sim_obs[camera.uuids["depth"]] = depth[:, :, None]
            if frame.semantic is not None:
                sim_obs[camera.uuids["semantic"]] = frame.semantic[:, :, None]
        self._prev_sim_obs = sim_obs
        return self._sensor_suite.get_observations(sim_obs)


def _wrap(angle: float) -> float:
    return float((angle + np.pi) % (2 * np.pi) - np.pi)


def _yaw_of(rotation: Any) -> float:
    """Heading of a rotation given as quaternion.quaternion, [x, y, z, w] or a yaw angle."""
    if isinstance(rotation, quaternion.quaternion):
        return quaternion_to_yaw(np.array([rotation.x, rotation.y, rotation.z, rotation.w]))
    values = np.asarray(rotation, dtype=np.float64)
    if values.shape == (4,):
        return quaternion_to_yaw(values)
    if values.shape == ():
        return float(values)
    raise TangoSimError(f"rotation must be a quaternion [x, y, z, w] or a yaw, got {rotation!r}")


class _TangoTiltAction(SimulatorTaskAction):
    """Tilt the camera by the action config's tilt_angle (degrees); observations come from sim.step(None)."""

    direction = 1.0

    def step(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self._sim.tilt_camera(self.direction * np.deg2rad(float(self._config.tilt_angle)))  # type: ignore[attr-defined]


@registry.register_task_action
class TangoLookUpAction(_TangoTiltAction):
    """look_up for TangoSim."""

    direction = 1.0


@registry.register_task_action
class TangoLookDownAction(_TangoTiltAction):
    """look_down for TangoSim."""

    direction = -1.0
