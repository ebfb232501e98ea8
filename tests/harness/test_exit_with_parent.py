"""A child told to end with its starter ends whether the starter dies before or after the child's watch begins
(tango.lifetime); a pool worker that was still spawning when the run was killed used to outlive it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import os, sys, time
from tango.lifetime import exit_with_parent
parent = int(sys.argv[1])
if sys.argv[2] == "after_starter_died":
    while os.getppid() == parent:  # the starter is gone before the watch begins
        time.sleep(0.01)
exit_with_parent(parent, poll_s=0.05)
time.sleep(60)
"""

STARTER = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid()), sys.argv[2]])
print(child.pid, flush=True)
time.sleep(float(sys.argv[3]))
"""


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (an orphan's reaper may be slow to collect it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize(
    ("watch_begins", "starter_lives_s"), [("after_starter_died", "0"), ("before_starter_died", "2")]
)
def test_the_child_ends_with_its_starter(watch_begins: str, starter_lives_s: str) -> None:
    starter = subprocess.run(
        [sys.executable, "-c", STARTER, CHILD, watch_begins, starter_lives_s],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    child = int(starter.stdout.split()[0])
    deadline = time.monotonic() + 15
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child), f"the child outlived its starter (watch begun {watch_begins})"
