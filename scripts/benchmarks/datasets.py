"""Time the synthetic dataset generation (apartments + ObjectNav, OVON, GOAT, OpenEQA files), and the view-point
visibility check on its own.

`python scripts/bench.py datasets [--scenes 10] [--seed 0]` prints one JSON line with `generate_s` (wall) and
`generate_cpu_s` (CPU time of this process and the generator's worker processes) for the scene count; the target is
< 60 s for 10 scenes on 2 cores. `python scripts/bench.py datasets --visibility [--seed 0]` checks every view
point candidate of one apartment with the local id render the generator uses and with the full simulator
render, and prints CPU ms per candidate for both and the fraction of mask pixels on which they differ.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any


def _cpu_with_children() -> float:
    """CPU seconds of this process and its finished children (the generator's worker processes)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _generation(scenes: int, seed: int) -> dict[str, Any]:
    from tango.scenes.datasets.generate import DatasetConfig, generate_dataset

    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = time.perf_counter(), _cpu_with_children()
        stamp = generate_dataset(Path(tmp) / "synthetic", DatasetConfig(num_scenes=scenes, seed=seed))
        wall, cpu = time.perf_counter() - wall, _cpu_with_children() - cpu
    return {
        "scenes": scenes,
        "generate_s": round(wall, 2),
        "generate_cpu_s": round(cpu, 2),
        "counts": stamp.get("counts"),
    }


def _visibility(seed: int) -> dict[str, Any]:
    from tango.scenes.apartment import ApartmentConfig, generate_apartment
    from tango.scenes.datasets.generate import scene_seed
    from tango.scenes.datasets.viewpoints import (
        ViewPointConfig,
        camera_pose,
        candidate_positions,
        yaw_towards,
    )
    from tango.scenes.datasets.visibility import VisibilityRenderer
    from tango.sim.navgrid import NavGrid
    from tango.sim.render import Renderer, create_gl_context
    from tango.sim.scene import load_scene

    config = ViewPointConfig()
    with tempfile.TemporaryDirectory() as tmp:
        generate_apartment(scene_seed(seed, 0), ApartmentConfig()).write(Path(tmp), "apt_000")
        scene = load_scene(Path(tmp) / "apt_000.glb", require_annotations=True)
    assert scene.annotations is not None
    grid = NavGrid.from_scene(scene.mesh, floor_y=scene.annotations.floor_y)
    gl = create_gl_context()
    local = VisibilityRenderer(scene.mesh, config.width, config.height, config.hfov_deg, grid.floor_y, gl)
    full = Renderer(scene.mesh, config.width, config.height, config.hfov_deg, sensors=("semantic",), ctx=gl)
    work = []
    for obj in scene.annotations.objects:
        positions = candidate_positions(grid, obj, config)
        work.append(
            (obj, [camera_pose(p, yaw_towards(p, obj.center), config.camera_height_m) for p in positions])
        )
    candidates = sum(len(poses) for _, poses in work)
    cpu = time.process_time()
    masks = [list(local.masks(obj, poses)) for obj, poses in work]
    local_cpu = time.process_time() - cpu
    cpu = time.process_time()
    differing = 0
    for (obj, poses), object_masks in zip(work, masks, strict=True):
        for pose, mask in zip(poses, object_masks, strict=True):
            frame = full.render(pose)
            assert frame.semantic is not None
            differing += int(((frame.semantic == obj.id) != mask).sum())
    full_cpu = time.process_time() - cpu
    return {
        "benchmark": "view point visibility",
        "candidates": candidates,
        "kept": sum(int(m.sum() >= config.min_pixels) for object_masks in masks for m in object_masks),
        "local_cpu_ms_per_candidate": round(1000 * local_cpu / candidates, 3),
        "full_render_cpu_ms_per_candidate": round(1000 * full_cpu / candidates, 3),
        "differing_pixel_fraction": differing / (candidates * config.frame_pixels),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py datasets")
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--visibility", action="store_true", help="time the view point check on one apartment"
    )
    args = parser.parse_args(argv)
    record = _visibility(args.seed) if args.visibility else _generation(args.scenes, args.seed)
    record["load_average_1m"] = round(os.getloadavg()[0], 2)
    print(json.dumps(record))
    return 0
