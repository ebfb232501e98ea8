"""Thread counts each process sets for itself: BLAS/OpenMP pools, torch, and Mesa llvmpipe's rasteriser.

The evaluation's parallelism is its worker processes, one per core; inside a process extra threads only
compete with the other workers, and idle OpenMP threads spin (sched_yield) while they wait for work. So every
process of a run calls `pin_threads` before it loads models or creates a GL context: libraries loaded later
read the environment variables set here when they start, pools already loaded are limited through threadpoolctl,
and torch and OpenCV (whose own pool threadpoolctl does not see) through their setters.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass

import cv2
from threadpoolctl import threadpool_limits

LOG = logging.getLogger(__name__)

COMPUTE_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS")
RASTERISER_VARIABLE = "LP_NUM_THREADS"
"""Read by Mesa once, when the process's first GL context is created; 0 rasterises in the calling thread."""


@dataclass(frozen=True)
class ThreadCounts:
    """Threads for numeric libraries (BLAS, OpenMP, torch intra-op) and for llvmpipe's rasteriser."""

    compute: int = 1
    rasteriser: int = 0

    def __post_init__(self) -> None:
        if self.compute < 1 or self.rasteriser < 0:
            raise ValueError(f"thread counts must be compute >= 1 and rasteriser >= 0, got {self}")


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def pin_threads(counts: ThreadCounts = ThreadCounts()) -> None:
    """Set this process's thread counts (call early: before the first GL context and model load)."""
    for name in COMPUTE_VARIABLES:
        os.environ[name] = str(counts.compute)
    os.environ[RASTERISER_VARIABLE] = str(counts.rasteriser)
    threadpool_limits(counts.compute)
    cv2.setNumThreads(counts.compute)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(counts.compute)
    LOG.debug("threads pinned: %s", counts)
