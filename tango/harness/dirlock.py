"""One writer per output folder: an OS lock on RUN_DIR/.lock held for the whole run.

The lock is `flock` on an open file, so the kernel releases it when the process ends however it ends (SIGKILL,
a crash): no stale lock is ever left. The file also says who holds it (pid, host, start time, command) for the
message a second run prints. Pool workers do not take it (the run process alone writes results); shards write
to folders of their own.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import socket
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import IO, Self

LOCK_FILE = ".lock"
UNSUPPORTED = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS}

log = logging.getLogger(__name__)


class OutputDirBusy(RuntimeError):
    """Another process holds the folder's lock; the message says who and what to do."""


def _holder_text(handle: IO[str]) -> str:
    handle.seek(0)
    try:
        holder = json.loads(handle.read() or "{}")
    except json.JSONDecodeError:
        holder = {}
    if not holder:
        return "another tango.eval"
    return (
        f"tango.eval pid {holder.get('pid')} on {holder.get('host')} since {holder.get('started')} "
        f"({' '.join(holder.get('argv', []))[:200]})"
    )


class OutputDirLock:
    """Context manager: hold RUN_DIR's lock, or raise OutputDirBusy (or wait for it when `wait`)."""

    def __init__(self, run_dir: str | os.PathLike[str], wait: bool = False) -> None:
        self.path = Path(run_dir) / LOCK_FILE
        self.wait = wait
        self._handle: IO[str] | None = None

    def __enter__(self) -> Self:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            self._acquire(handle)
        except BaseException:
            handle.close()
            raise
        handle.seek(0)
        handle.truncate()
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        holder = {"pid": os.getpid(), "host": socket.gethostname(), "started": started, "argv": sys.argv}
        handle.write(json.dumps(holder) + "\n")
        handle.flush()
        self._handle = handle
        return self

    def _acquire(self, handle: IO[str]) -> None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            holder = _holder_text(handle)
        except OSError as error:
            if error.errno not in UNSUPPORTED:
                raise
            log.warning(
                "%s: this filesystem cannot lock files; make sure no other run writes here", self.path
            )
            return
        if not self.wait:
            raise OutputDirBusy(
                f"{self.path.parent} is being written by {holder}; wait for it, choose another "
                "eval.output_dir, or set eval.wait_for_lock=true to wait"
            )
        log.warning(
            "%s is being written by %s; waiting for it (eval.wait_for_lock)", self.path.parent, holder
        )
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None
