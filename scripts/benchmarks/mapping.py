"""Benchmark of the maps: `python scripts/bench.py mapping [--steps 500] [--vlfm PATH --frontier-exploration PATH]`.

Frames come from one exploration episode on a procedural apartment (256x256 depth, hfov 79, depth 0.5-5 m) into
1000 px maps at 20 px/m, one thread; times are the thread's CPU time (`"timer": "thread_cpu"`), so that other
processes on a shared machine do not inflate them (`--timer wall` on an idle machine). Prints one JSON line with
- `map_update_ms`: median per frame of obstacle + explored + value map updates (`obstacle_ms`, `value_ms` apart),
  `frontier_ms` the frontier detection that exploration adds when it asks for frontiers, all with the default
  `map.explored_method`; `explored_methods` gives `obstacle_ms` and `frontier_ms` for each method;
- `memory_update_ms`, `memory_bytes` (feature memory, 256-d embeddings, after the episode), `dense_memory_bytes`
  (a 1000x1000x256 float32 per-cell map), `memory_ratio`, and `recall_ms` (median of 20 queries).
With `--vlfm` (a checkout of bdaiinstitute/vlfm; its frontier code needs naokiyokoyama/frontier_exploration),
VLFM's ValueMap (default weighted fusion) and ObstacleMap (with frontiers) run on the same frames, and a `vlfm`
entry reports their medians, our speed-ups, the max abs differences of the value and confidence maps, and per
explored method (`methods`): obstacle and explored cell agreement, frontier counts, the largest distance in pixels
from a frontier to its nearest counterpart on the other side (both ways), how many checkpoints had the same
frontiers (same count, each within 1 px), and the obstacle-with-frontiers speed-up. `--dense` also times a dense
per-cell memory update.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tango.mapping.config import MapConfig
from tango.mapping.feature_memory import FeatureMemory
from tango.mapping.geometry import effective_depth
from tango.mapping.obstacle_map import ObstacleMap
from tango.mapping.value_map import ValueMap
from tango.navigation.actions import MOVE_FORWARD, TURN_LEFT, TURN_RIGHT
from tango.navigation.navigator import Navigator
from tango.scenes.apartment import generate_apartment
from tango.sim.navgrid import NavGrid
from tango.sim.render import Renderer
from tango.types.observation import Observation
from tango.types.poses import camera_pose, forward_vector

HFOV = 79.0
CAMERA_HEIGHT = 0.88
EMBEDDING_DIM = 256
FRONTIER_MATCH_M = 0.5
SAME_FRONTIER_PX = 1.0
EXPLORED_METHODS = ("raycast", "vlfm")
DEFAULT_METHOD = MapConfig().explored_method
TIMERS: dict[str, Callable[[], float]] = {"thread_cpu": time.thread_time, "wall": time.perf_counter}
"""--timer choices; thread CPU time by default: on a shared machine wall-clock medians mostly measure preemption."""
COMPARE_EVERY = 25


def record_episode(steps: int, seed: int) -> tuple[list[Observation], float]:
    """Observations of a frontier-exploration episode (random turns once nothing is left); and the floor y."""
    scene = generate_apartment(seed).scene()
    grid = NavGrid.from_scene(scene)
    renderer = Renderer(scene, 256, 256, HFOV, 0.5, 5.0, sensors=("depth",))
    rng = np.random.default_rng(seed)
    position, yaw = grid.sample_navigable_point(rng), float(rng.uniform(-np.pi, np.pi))
    navigator = Navigator()
    frames = []
    for _ in range(steps):
        pose = camera_pose(position, yaw, height=CAMERA_HEIGHT)
        depth = renderer.render(pose).depth
        assert depth is not None
        obs = Observation(np.zeros((1, 1, 3), np.uint8), depth, pose, HFOV, position.copy(), yaw)
        frames.append(obs)
        navigator.update(obs)
        action = navigator.next_action_explore() or (TURN_LEFT if rng.random() < 0.5 else MOVE_FORWARD)
        if action in (TURN_LEFT, TURN_RIGHT):
            yaw += np.deg2rad(30.0) if action == TURN_LEFT else -np.deg2rad(30.0)
        elif action == MOVE_FORWARD:
            target = position + 0.25 * forward_vector(yaw)
            if grid.segment_navigable(position, target):
                position = target
    renderer.release()
    return frames, grid.floor_y


def median_ms(times: list[float]) -> float:
    return round(float(np.median(times)) * 1000.0, 3)


def run_tango(
    frames: list[Observation],
    scores: np.ndarray,
    embeddings: np.ndarray,
    clock: Callable[[], float],
    vlfm: VlfmSide | None = None,
) -> dict[str, Any]:
    """Time our maps and memory on the frames, the obstacle map once per explored method (VLFM's maps, when
    given, step on each frame outside the timing and are compared with ours at checkpoints)."""
    config = MapConfig()
    omaps = {method: ObstacleMap(MapConfig(explored_method=method)) for method in EXPLORED_METHODS}
    vmap = ValueMap(1, config)
    memory = FeatureMemory(omaps[DEFAULT_METHOD].grid, EMBEDDING_DIM)
    t_obstacle: dict[str, list[float]] = {method: [] for method in EXPLORED_METHODS}
    t_frontier: dict[str, list[float]] = {method: [] for method in EXPLORED_METHODS}
    t_value, t_memory = [], []
    for index, (obs, score, embedding) in enumerate(zip(frames, scores, embeddings, strict=True)):
        for method, omap in omaps.items():
            t0 = clock()
            omap.update(obs)
            t1 = clock()
            omap.frontier_pixels()
            t_obstacle[method].append(t1 - t0)
            t_frontier[method].append(clock() - t1)
        t0 = clock()
        patch = vmap.update(obs, score)
        t1 = clock()
        memory.add(embedding, patch)
        t_memory.append(clock() - t1)
        t_value.append(t1 - t0)
        if vlfm is not None:
            vlfm.step(obs, score)
            if index % vlfm.compare_every == vlfm.compare_every - 1 or index == len(frames) - 1:
                vlfm.compare(omaps, vmap)
    queries = np.random.default_rng(1).normal(size=(20, EMBEDDING_DIM)).astype(np.float32)
    t_recall = []
    for query in queries:
        t0 = clock()
        memory.recall(query)
        t_recall.append(clock() - t0)
    dense_bytes = config.size_px * config.size_px * EMBEDDING_DIM * 4
    default_obstacle = t_obstacle[DEFAULT_METHOD]
    return {
        "map_update_ms": median_ms([a + b for a, b in zip(default_obstacle, t_value, strict=True)]),
        "explored_method": DEFAULT_METHOD,
        "obstacle_ms": median_ms(default_obstacle),
        "value_ms": median_ms(t_value),
        "frontier_ms": median_ms(t_frontier[DEFAULT_METHOD]),
        "explored_methods": {
            method: {
                "obstacle_ms": median_ms(t_obstacle[method]),
                "frontier_ms": median_ms(t_frontier[method]),
                "obstacle_with_frontiers_ms": median_ms(
                    [a + b for a, b in zip(t_obstacle[method], t_frontier[method], strict=True)]
                ),
            }
            for method in EXPLORED_METHODS
        },
        "memory_update_ms": median_ms(t_memory),
        "memory_bytes": memory.nbytes,
        "dense_memory_bytes": dense_bytes,
        "memory_ratio": round(memory.nbytes / dense_bytes, 5),
        "recall_ms": median_ms(t_recall),
    }


def time_dense_memory(
    frames: list[Observation], embeddings: np.ndarray, clock: Callable[[], float], steps: int = 20
) -> float:
    """Median ms of a TANGO-style dense update: zero the unexplored cells, write the embedding over the FOV."""
    config = MapConfig()
    dense = np.zeros((config.size_px, config.size_px, EMBEDDING_DIM), np.float32)
    omap, vmap = ObstacleMap(config), ValueMap(1, config)
    times = []
    for obs, embedding in list(zip(frames, embeddings, strict=True))[:steps]:
        omap.update(obs)
        patch = vmap.project(obs)
        t0 = clock()
        dense[~omap.explored] = 0.0
        h, w = patch.confidence.shape
        dense[patch.row0 : patch.row0 + h, patch.col0 : patch.col0 + w][patch.confidence > 0] = embedding
        times.append(clock() - t0)
    return median_ms(times)


def vlfm_pose(pose: np.ndarray, floor_y: float) -> np.ndarray:
    """Our world-from-camera (y up, OpenGL camera) as VLFM's camera-to-episodic (x forward, y left, z up)."""
    world = np.array([[0, 0, -1, 0], [-1, 0, 0, 0], [0, 1, 0, -floor_y], [0, 0, 0, 1]], dtype=float)
    camera = np.array([[0, -1, 0, 0], [0, 0, 1, 0], [-1, 0, 0, 0], [0, 0, 0, 1]], dtype=float)
    return world @ pose @ camera


def import_vlfm(vlfm_path: Path, frontier_path: Path) -> tuple[Any, Any]:
    """VLFM's ValueMap and ObstacleMap classes, imported from the given checkouts (read-only)."""
    for path in (vlfm_path, frontier_path):
        if not path.is_dir():
            raise SystemExit(f"error: {path} is not a directory")
        sys.path.insert(0, str(path))
    from vlfm.mapping.obstacle_map import ObstacleMap as VlfmObstacleMap
    from vlfm.mapping.value_map import ValueMap as VlfmValueMap

    return VlfmValueMap, VlfmObstacleMap


class MethodComparison:
    """Our obstacle map with one explored method against VLFM's, accumulated over the checkpoints."""

    def __init__(self, pixels_per_meter: int) -> None:
        self.pixels_per_meter = pixels_per_meter
        self.obstacle_agreement: list[float] = []
        self.explored_agreement: list[float] = []
        self.frontiers_vlfm = self.frontiers_tango = self.frontiers_near = 0
        self.checkpoints = self.same_frontiers = 0
        self.max_matched_px: float | None = 0.0

    def add(
        self, omap: ObstacleMap, obstacles: np.ndarray, explored: np.ndarray, frontiers: np.ndarray
    ) -> None:
        """Compare at one checkpoint: VLFM's obstacle and explored layers and its frontier (row, col) pixels."""
        either = omap.obstacles | obstacles
        self.obstacle_agreement.append(float((omap.obstacles == obstacles)[either].mean()))
        either = omap.explored | explored
        if either.any():
            self.explored_agreement.append(float((omap.explored == explored)[either].mean()))
        ours = omap.frontier_pixels()
        self.checkpoints += 1
        self.frontiers_vlfm += len(frontiers)
        self.frontiers_tango += len(ours)
        if len(ours) == 0 and len(frontiers) == 0:
            self.same_frontiers += 1
            return
        if len(ours) == 0 or len(frontiers) == 0:
            self.max_matched_px = None
            return
        d = np.hypot(*(ours[:, None, :] - frontiers[None, :, :]).transpose(2, 0, 1))
        self.frontiers_near += int((d.min(axis=1) <= FRONTIER_MATCH_M * self.pixels_per_meter).sum())
        worst = float(max(d.min(axis=1).max(), d.min(axis=0).max()))
        if self.max_matched_px is not None:
            self.max_matched_px = max(self.max_matched_px, worst)
        self.same_frontiers += int(len(ours) == len(frontiers) and worst <= SAME_FRONTIER_PX)

    def report(self) -> dict[str, Any]:
        return {
            "obstacle_cell_agreement": round(float(np.mean(self.obstacle_agreement)), 4),
            "explored_cell_agreement": round(float(np.mean(self.explored_agreement)), 4),
            "frontiers_vlfm": self.frontiers_vlfm,
            "frontiers_tango": self.frontiers_tango,
            "frontiers_tango_within_0.5m_of_vlfm": self.frontiers_near,
            "frontier_max_matched_px": None if self.max_matched_px is None else round(self.max_matched_px, 3),
            "checkpoints": self.checkpoints,
            "checkpoints_with_same_frontiers": self.same_frontiers,
        }


class VlfmSide:
    """VLFM's ValueMap (default weighted fusion) and ObstacleMap (with frontiers) fed the same frames, depth
    normalised over 0.5-5 m as habitat gives it; compares its maps with ours at checkpoints."""

    def __init__(
        self,
        vlfm_path: Path,
        frontier_path: Path,
        floor_y: float,
        clock: Callable[[], float],
        compare_every: int = COMPARE_EVERY,
    ) -> None:
        value_cls, obstacle_cls = import_vlfm(vlfm_path, frontier_path)
        self.config = config = MapConfig()
        self.floor_y = floor_y
        self.clock = clock
        self.compare_every = compare_every
        self.vmap = value_cls(value_channels=1, size=config.size_px, use_max_confidence=False)
        self.omap = obstacle_cls(
            config.min_obstacle_height,
            config.max_obstacle_height,
            config.agent_radius,
            area_thresh=config.min_unexplored_area,
            size=config.size_px,
            pixels_per_meter=config.pixels_per_meter,
        )
        self.t_value: list[float] = []
        self.t_obstacle: list[float] = []
        self.value_diff = self.confidence_diff = 0.0
        self.methods = {method: MethodComparison(config.pixels_per_meter) for method in EXPLORED_METHODS}

    def step(self, obs: Observation, score: np.ndarray) -> None:
        cfg = self.config
        depth = effective_depth(obs.depth, cfg.min_depth, cfg.max_depth)
        normalised = ((depth - cfg.min_depth) / (cfg.max_depth - cfg.min_depth)).astype(np.float32)
        tf = vlfm_pose(obs.camera_pose, self.floor_y)
        fx = obs.intrinsics()[0, 0]
        fov = np.deg2rad(obs.hfov_deg)
        t0 = self.clock()
        self.vmap.update_map(score, normalised, tf, cfg.min_depth, cfg.max_depth, fov)
        t1 = self.clock()
        self.omap.update_map(normalised, tf, cfg.min_depth, cfg.max_depth, fx, fx, fov)
        t2 = self.clock()
        self.t_value.append(t1 - t0)
        self.t_obstacle.append(t2 - t1)

    def compare(self, omaps: dict[str, ObstacleMap], vmap: ValueMap) -> None:
        """Accumulate differences between VLFM's maps and ours: value/confidence max abs diff, and per explored
        method cell agreement where either map marks a cell and the frontier comparison."""
        self.value_diff = max(
            self.value_diff, float(np.abs(vmap.values[..., 0] - self.vmap._value_map[..., 0]).max())
        )
        self.confidence_diff = max(
            self.confidence_diff, float(np.abs(vmap.confidence - self.vmap._map).max())
        )
        theirs_obstacles, theirs_explored = self.omap._map.astype(bool), self.omap.explored_area.astype(bool)
        theirs = np.asarray(self.omap._frontiers_px, dtype=float).reshape(-1, 2)[
            :, ::-1
        ]  # (x, y) -> (row, col)
        for method, omap in omaps.items():
            self.methods[method].add(omap, theirs_obstacles, theirs_explored, theirs)

    def report(self, ours: dict[str, Any]) -> dict[str, Any]:
        value_ms, obstacle_ms = median_ms(self.t_value), median_ms(self.t_obstacle)
        methods = {}
        for method, comparison in self.methods.items():
            ours_ms = ours["explored_methods"][method]["obstacle_with_frontiers_ms"]
            methods[method] = {
                "obstacle_with_frontiers_speedup": round(obstacle_ms / ours_ms, 1),
                **comparison.report(),
            }
        return {
            "value_ms": value_ms,
            "obstacle_with_frontiers_ms": obstacle_ms,
            "value_speedup": round(value_ms / ours["value_ms"], 1),
            "value_max_abs_diff": self.value_diff,
            "confidence_max_abs_diff": self.confidence_diff,
            "compared_every_frames": self.compare_every,
            "methods": methods,
        }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py mapping", description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vlfm", type=Path, help="checkout of bdaiinstitute/vlfm")
    parser.add_argument(
        "--frontier-exploration",
        type=Path,
        help="checkout of naokiyokoyama/frontier_exploration (default: beside --vlfm as fe_checkout)",
    )
    parser.add_argument("--timer", choices=sorted(TIMERS), default="thread_cpu")
    parser.add_argument(
        "--compare-every", type=int, default=COMPARE_EVERY, help="frames between comparisons with VLFM"
    )
    parser.add_argument("--dense", action="store_true", help="also time a dense 1000x1000x256 memory update")
    args = parser.parse_args(argv)
    clock = TIMERS[args.timer]
    frames, floor_y = record_episode(args.steps, args.seed)
    rng = np.random.default_rng(args.seed)
    scores = rng.uniform(0.0, 1.0, size=(len(frames), 1)).astype(np.float32)
    embeddings = rng.normal(size=(len(frames), EMBEDDING_DIM)).astype(np.float32)
    vlfm = None
    if args.vlfm is not None:
        frontier_path = args.frontier_exploration or args.vlfm.parent / "fe_checkout"
        vlfm = VlfmSide(args.vlfm, frontier_path, floor_y, clock, args.compare_every)
    ours = run_tango(frames, scores, embeddings, clock, vlfm)
    result: dict[str, Any] = {
        "benchmark": "mapping",
        "frames": len(frames),
        "frame": "256x256",
        "map_px": 1000,
        "pixels_per_meter": 20,
        "timer": args.timer,
        **ours,
    }
    if args.dense:
        result["dense_memory_update_ms"] = time_dense_memory(frames, embeddings, clock)
    if vlfm is not None:
        result["vlfm"] = vlfm.report(ours)
    print(json.dumps(result))
    return 0
