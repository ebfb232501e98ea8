"""Child processes that end with the process that started them: pool workers and the UrbanGround stand-in
server watch their parent and exit once it is gone, however it ended (a clean exit that skipped their cleanup,
os._exit, SIGKILL), so no orphan keeps its memory or port.

The parent's pid is handed to the child by the parent, not read by the child: a child that starts its watch
after the parent already died (a slow spawn on a busy machine) would otherwise take its new parent (init or a
subreaper) for the one to watch, and live on."""

from __future__ import annotations

import os
import threading
import time

PARENT_POLL_S = 0.5


def exit_with_parent(parent: int, poll_s: float = PARENT_POLL_S) -> None:
    """End this process (exit code 1) once `parent` (the pid the starting process gave) is no longer its parent:
    at once when that is already so, else from a daemon thread that polls every `poll_s` seconds."""
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch, args=(parent, poll_s), daemon=True, name="exit-with-parent").start()


def _watch(parent: int, poll_s: float) -> None:
    while os.getppid() == parent:
        time.sleep(poll_s)
    os._exit(1)
