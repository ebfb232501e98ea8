"""Each process pins its own threads: numeric pools, torch, and no llvmpipe rasteriser threads by default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tango.threads import ThreadCounts

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, sys
from pathlib import Path
from tango.threads import ThreadCounts, pin_threads
pin_threads(ThreadCounts(compute=int(sys.argv[1]), rasteriser=int(sys.argv[2])))
import cv2
import torch
from threadpoolctl import threadpool_info
from tango.sim.render import create_gl_context
ctx = create_gl_context()
fbo = ctx.simple_framebuffer((64, 64))
fbo.use()
fbo.clear(1.0, 0.0, 0.0, 1.0)
ctx.finish()
names = [p.read_text().strip() for p in Path("/proc/self/task").glob("*/comm")]
print(json.dumps({
    "torch": torch.get_num_threads(),
    "opencv": cv2.getNumThreads(),
    "pools": sorted({int(p["num_threads"]) for p in threadpool_info()}),
    "llvmpipe_threads": sum(name.startswith("llvmpipe") for name in names),
}))
"""


def _child(compute: int, rasteriser: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(compute), str(rasteriser)],
        env=env, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_pinned_process_has_one_compute_thread_and_no_rasteriser_threads() -> None:
    found = _child(1, 0)
    assert found == {"torch": 1, "opencv": 1, "pools": [1], "llvmpipe_threads": 0}


def test_other_counts_reach_torch_the_pools_and_llvmpipe() -> None:
    found = _child(2, 2)
    assert found["torch"] == 2 and found["opencv"] == 2
    assert max(found["pools"]) == 2  # (OpenCV's bundled OpenBLAS is built single-threaded)
    assert found["llvmpipe_threads"] == 2


def test_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="thread counts"):
        ThreadCounts(compute=0)
