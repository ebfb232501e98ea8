"""Time the synthetic dataset generation (apartments + ObjectNav, OVON, GOAT, OpenEQA files).

`python scripts/bench.py datasets [--scenes 10] [--seed 0]` prints one JSON line with `generate_s` (wall) and
`generate_cpu_s` (this process's CPU time) for the scene count; the target is < 60 s for 10 scenes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py datasets")
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from tango.scenes.datasets.generate import DatasetConfig, generate_dataset

    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = time.perf_counter(), time.process_time()
        stamp = generate_dataset(
            Path(tmp) / "synthetic", DatasetConfig(num_scenes=args.scenes, seed=args.seed)
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    record = {
        "scenes": args.scenes,
        "generate_s": round(wall, 2),
        "generate_cpu_s": round(cpu, 2),
        "counts": stamp.get("counts"),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(record))
    return 0
