"""SIGTERM handled as SIGINT: SLURM (preemption, time limits), `kill` and container stops send SIGTERM, and a run
should then end as an interrupted one does (summary with complete: false, no stale in-flight markers)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when the process receives SIGTERM; handled wherever an interrupt is."""

    exit_code = 128 + signal.SIGTERM


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated("SIGTERM")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises `Terminated` (a KeyboardInterrupt); the previous handler is restored
    after. Only the main thread can install handlers: elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
