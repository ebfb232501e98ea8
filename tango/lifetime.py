"""Child processes that end with the process that started them: pool workers and the UrbanGround stand-in
server watch their parent and exit once it is gone, however it ended (a clean exit that skipped their cleanup,
os._exit, SIGKILL), so no orphan keeps its memory or port."""

from __future__ import annotations

import os
import threading
import time

PARENT_POLL_S = 0.5


def exit_with_parent(poll_s: float = PARENT_POLL_S) -> None:
    """Start a daemon thread that ends this process (exit code 1) once its parent process has gone."""
    parent = os.getppid()
    threading.Thread(target=_watch, args=(parent, poll_s), daemon=True, name="exit-with-parent").start()


def _watch(parent: int, poll_s: float) -> None:
    while os.getppid() == parent:
        time.sleep(poll_s)
    os._exit(1)
