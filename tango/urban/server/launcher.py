"""Start the stand-in server as a child process on a free 127.0.0.1 port, wait until it serves, restart it
when it died, stop it at the end. The harness owns one per worker; it never outlives the process that started it
(pool workers end without closing their runner: the server then exits on its own, `--parent-pid`)."""

from __future__ import annotations

import logging
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from tango.urban.client import ClientConfig, UrbanClient

log = logging.getLogger(__name__)


class LaunchError(RuntimeError):
    """The stand-in server did not come up (its log's last lines are in the message)."""


class ServerProcess:
    """`python -m tango.urban.server --port 0 --city DIR` with its URL once started."""

    def __init__(
        self,
        city_dir: str | Path,
        token: str = "",
        log_path: str | Path | None = None,
        startup_timeout_s: float = 180.0,
    ) -> None:
        self.city_dir = str(city_dir)
        self.token = token
        self.log_path = Path(log_path) if log_path else None
        self.startup_timeout_s = startup_timeout_s
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.starts = 0

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> str:
        """Launch and wait for the `listening on URL` line and a healthy /health; returns the URL."""
        self.stop()
        command = [
            sys.executable, "-m", "tango.urban.server", "--port", "0", "--city", self.city_dir,
            "--parent-pid", str(os.getpid()),
        ]  # fmt: skip
        if self.token:
            command += ["--token", self.token]
        log_file: IO[str] | int = subprocess.DEVNULL
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            log_file = self.log_path.open("a", encoding="utf-8")
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log_file, text=True, bufsize=1
        )
        self.starts += 1
        lines: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=_pump, args=(self.process.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None:
                    raise LaunchError(
                        f"stand-in server exited with {self.process.returncode}: {self._tail()}"
                    )
                continue
            if line.startswith("listening on "):
                self.url = line.split("listening on ", 1)[1].strip()
                client = UrbanClient(ClientConfig(self.url, self.token, retries=0))
                client.wait_ready(30.0)
                log.info("stand-in server %s (pid %d)", self.url, self.process.pid)
                return self.url
        self.stop()
        raise LaunchError(
            f"stand-in server gave no address within {self.startup_timeout_s:.0f}s: {self._tail()}"
        )

    def ensure(self) -> str:
        """The URL of a running server, starting a new one when the last one died."""
        if not self.alive():
            if self.process is not None:
                log.warning("stand-in server (pid %d) is gone; starting a new one", self.process.pid)
            return self.start()
        return self.url

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None

    def _tail(self) -> str:
        if self.log_path is None or not self.log_path.is_file():
            return "(no log)"
        lines = self.log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return " | ".join(lines[-3:]) or "(empty log)"


def _pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)
