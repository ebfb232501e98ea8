"""Child processes that end with the process that started them: pool workers and the UrbanGround stand-in
server watch their parent and exit once it is gone, however it ended (a clean exit that skipped their cleanup,
os._exit, SIGKILL), so no orphan keeps its memory or port. Also: what start-up allocated is frozen for the
episodes, so that full garbage collections in the loop skip it."""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

PARENT_POLL_S = 0.5


def exit_with_parent(poll_s: float = PARENT_POLL_S) -> None:
    """Start a daemon thread that ends this process (exit code 1) once its parent process has gone."""
    parent = os.getppid()
    threading.Thread(target=_watch, args=(parent, poll_s), daemon=True, name="exit-with-parent").start()


def _watch(parent: int, poll_s: float) -> None:
    while os.getppid() == parent:
        time.sleep(poll_s)
    os._exit(1)


def freeze_startup() -> None:
    """Freeze what start-up allocated (imports, configuration, the episode runner): full garbage collections in
    the episodes then skip those objects (~680,000 after the imports, which made one full collection cost
    ~0.4 s of CPU). It changes no result, only how long collections run."""
    gc.freeze()


@contextmanager
def frozen_startup() -> Iterator[None]:
    """`freeze_startup` for the block, then unfreeze (the objects return to the oldest generation), so a process
    that runs evaluations one after another (tests, the benchmark) keeps no garbage for good."""
    freeze_startup()
    try:
        yield
    finally:
        gc.unfreeze()
