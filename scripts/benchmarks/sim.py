"""Benchmark of the embedded simulator: `python scripts/bench.py sim [--data DIR] [--frames N] [--steps N]`.

Prints one JSON line with
- `render_fps`: frames per second of one-pass RGB + depth + semantic rendering at `--width` x `--height`
  (default 256 x 256) from random navigable poses in a generated apartment;
- `env_steps_per_s`: habitat-lab `Env.step` calls per second on TangoSim-v0 (ObjectNav task with its sensors
  and measures, the same camera), resets excluded;
plus the CPU time (all threads of this process) per frame and per step, the scene size, the GL renderer and
the 1-minute load average: on a busy machine the wall-clock rates drop, the CPU times much less.
Without `--data` one apartment is generated into a temporary folder first (`python -m tango.scenes generate`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tango.sim.config import EmbeddedSimConfig
from tango.sim.habitat_env import make_objectnav_env
from tango.sim.navgrid import NavGrid
from tango.sim.render import Renderer
from tango.sim.scene import load_scene, world_triangles
from tango.types.poses import camera_pose

STEP_PATTERN = (
    "move_forward",
    "turn_left",
    "move_forward",
    "move_forward",
    "turn_right",
    "look_up",
    "look_down",
)


def _generate(out: Path, seed: int) -> None:
    command = [sys.executable, "-m", "tango.scenes", "generate", "--out", str(out), "--scenes", "1"]
    subprocess.run([*command, "--seed", str(seed)], check=True, capture_output=True)


def _render_fps(
    glb: Path, sim: EmbeddedSimConfig, frames: int, rng: np.random.Generator
) -> dict[str, object]:
    scene = load_scene(glb)
    floor_y = scene.annotations.floor_y if scene.annotations else None
    grid = NavGrid.from_scene(scene.mesh, floor_y=floor_y)
    poses = [
        camera_pose(
            grid.sample_navigable_point(rng), float(rng.uniform(-np.pi, np.pi)), 0.0, sim.camera_height
        )
        for _ in range(64)
    ]
    renderer = Renderer(scene.mesh, sim.width, sim.height, sim.hfov, sim.depth_min, sim.depth_max)
    for pose in poses[:8]:
        renderer.render(pose)
    start, cpu_start = time.perf_counter(), time.process_time()
    for index in range(frames):
        renderer.render(poses[index % len(poses)])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    with renderer.ctx:  # moderngl reads (and caches) GL_RENDERER from the current context: make it this one
        gl_renderer = renderer.ctx.info["GL_RENDERER"]
    info = {
        "render_fps": round(frames / elapsed, 1),
        "render_cpu_ms_per_frame": round(cpu / frames * 1e3, 3),
        "triangles": len(world_triangles(scene.mesh)),
        "gl_renderer": gl_renderer,
    }
    renderer.release()
    return info


def env_step_times(data: Path, sim: EmbeddedSimConfig, steps: int) -> tuple[float, float]:
    """(wall s, CPU s) of `steps` habitat-lab Env.step calls on the ObjectNav episodes of `data`, resets excluded."""
    env = make_objectnav_env(data / "objectnav" / "val" / "val.json.gz", data / "scenes", sim)
    env.reset()
    elapsed, cpu = 0.0, 0.0
    for done in range(steps):
        if env.episode_over:
            env.reset()
        start, cpu_start = time.perf_counter(), time.process_time()
        env.step(STEP_PATTERN[done % len(STEP_PATTERN)])
        elapsed += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
    env.close()
    return elapsed, cpu


def _env_steps(data: Path, sim: EmbeddedSimConfig, steps: int) -> dict[str, float]:
    elapsed, cpu = env_step_times(data, sim, steps)
    return {"env_steps_per_s": round(steps / elapsed, 1), "env_cpu_ms_per_step": round(cpu / steps * 1e3, 3)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench.py sim", description=__doc__)
    parser.add_argument(
        "--data", type=Path, help="a `tango.scenes generate` folder (default: generate one scene)"
    )
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--height", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    sim = EmbeddedSimConfig(width=args.width, height=args.height)
    with tempfile.TemporaryDirectory(prefix="tango-bench-sim-") as tmp:
        data = args.data
        if data is None:
            data = Path(tmp) / "data"
            _generate(data, args.seed)
        glb = min((data / "scenes").glob("*.glb"))
        rng = np.random.default_rng(args.seed)
        result: dict[str, object] = {
            "benchmark": "sim",
            "scene": glb.stem,
            "width": sim.width,
            "height": sim.height,
        }
        result.update(_render_fps(glb, sim, args.frames, rng))
        result.update(_env_steps(data, sim, args.steps))
    result["frames"], result["steps"] = args.frames, args.steps
    result["load_avg_1m"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result))
    return 0
