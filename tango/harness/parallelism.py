"""How many worker processes a run uses: `eval.num_workers` as a number, or `auto` (one per usable core, as
many as the available memory holds, never more than there are episodes to run).

Results do not depend on the count: every episode has its own seed and runs in a fresh agent (see pool.py).
"""

from __future__ import annotations

from pathlib import Path

from tango.threads import usable_cores

AUTO = "auto"
WORKER_MEMORY_BYTES = 2 * 1024**3
"""Memory set aside per worker for `auto`: a GOAT worker with the default oracle perception peaks at ~1.4 GB
(resident set, measured with `resource.getrusage` after two episodes); real detectors need more, so a machine
short of memory should name the count."""
MEMINFO = Path("/proc/meminfo")


def available_memory_bytes(meminfo: Path = MEMINFO) -> int | None:
    """MemAvailable from /proc/meminfo; None where there is no such file."""
    try:
        lines = meminfo.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None


def parse_workers(setting: object) -> int | str:
    """`eval.num_workers` checked: an integer >= 1 or "auto"; ValueError naming the key otherwise."""
    if setting == AUTO:
        return AUTO
    if isinstance(setting, int) and not isinstance(setting, bool) and setting >= 1:
        return setting
    raise ValueError(f"eval.num_workers must be an integer >= 1 or {AUTO!r}, got {setting!r}")


def worker_count(
    setting: int | str, episodes: int, cores: int | None = None, memory_bytes: int | None = None
) -> int:
    """Workers for `episodes` episodes to run: the setting itself, or for `auto` min(cores, memory / per
    worker); at most one per episode, at least one. `cores` and `memory_bytes` default to this machine's."""
    if setting == AUTO:
        count = usable_cores() if cores is None else cores
        memory = available_memory_bytes() if memory_bytes is None else memory_bytes
        if memory is not None:
            count = min(count, memory // WORKER_MEMORY_BYTES)
    else:
        count = int(setting)
    return max(1, min(count, episodes))
