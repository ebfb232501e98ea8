"""episodes.jsonl: one JSON object per finished episode, appended, flushed and fsynced as each ends.

Reading tolerates a run killed mid-write: an incomplete last line (no trailing newline, or not valid JSON)
is discarded, and `ResultsWriter` cuts it off before appending so the file stays one record per line.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections import Counter
from pathlib import Path
from typing import Any

EPISODES_FILE = "episodes.jsonl"
SUMMARY_FILE = "summary.json"

log = logging.getLogger(__name__)


class ResultsError(ValueError):
    """A results file is malformed beyond a truncated last line, or holds an episode twice."""


def _complete_prefix(data: bytes) -> bytes:
    """The bytes up to and including the last newline (what survives a kill mid-write)."""
    end = data.rfind(b"\n")
    return data[: end + 1] if end >= 0 else b""


def read_records(run_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """All complete episode records of a run, in file order; a truncated last line is skipped."""
    path = Path(run_dir) / EPISODES_FILE
    if not path.is_file():
        return []
    data = path.read_bytes()
    complete = _complete_prefix(data)
    if len(complete) < len(data):
        log.warning("%s: discarding a truncated last line (%d bytes)", path, len(data) - len(complete))
    records = []
    for number, line in enumerate(complete.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ResultsError(f"{path}:{number}: not a JSON object ({error.msg})") from error
        if not isinstance(record, dict) or "episode_id" not in record:
            raise ResultsError(f"{path}:{number}: record without episode_id")
        records.append(record)
    return records


def check_unique(records: list[dict[str, Any]], where: str) -> None:
    """Raise ResultsError naming the episode ids that occur more than once."""
    counts = Counter(str(record["episode_id"]) for record in records)
    duplicates = sorted(episode_id for episode_id, count in counts.items() if count > 1)
    if duplicates:
        raise ResultsError(f"{where}: episode(s) recorded more than once: {duplicates[:10]}")


def json_safe(value: Any) -> Any:
    """A copy with non-finite floats as None, numpy scalars as Python numbers and unknown objects as str."""
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if hasattr(value, "item") and callable(value.item):
        return json_safe(value.item())
    return str(value)


class ResultsWriter:
    """Appends episode records to RUN_DIR/episodes.jsonl; knows which episodes are already finished."""

    def __init__(self, run_dir: str | os.PathLike[str]) -> None:
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.run_dir / EPISODES_FILE
        self._drop_truncated_tail()
        self.records = read_records(self.run_dir)
        check_unique(self.records, str(self.path))
        self.finished_ids = {str(record["episode_id"]) for record in self.records}

    def _drop_truncated_tail(self) -> None:
        if not self.path.is_file():
            return
        data = self.path.read_bytes()
        complete = _complete_prefix(data)
        if len(complete) < len(data):
            log.warning("%s: cutting off a truncated last line left by an interrupted run", self.path)
            with self.path.open("r+b") as handle:
                handle.truncate(len(complete))

    def drop(self, episode_ids: set[str]) -> None:
        """Remove these episodes' records (to run them again), rewriting the file atomically."""
        kept = [record for record in self.records if str(record["episode_id"]) not in episode_ids]
        tmp = self.path.with_name(self.path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as handle:
            for record in kept:
                handle.write(json.dumps(json_safe(record), sort_keys=True, allow_nan=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        self.records = kept
        self.finished_ids = {str(record["episode_id"]) for record in kept}

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as a line and make it durable before returning; a second write of an id is refused."""
        episode_id = str(record["episode_id"])
        if episode_id in self.finished_ids:
            raise ResultsError(f"{self.path}: episode {episode_id!r} is already recorded")
        line = json.dumps(json_safe(record), sort_keys=True, allow_nan=False) + "\n"
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)
            try:
                handle.flush()
                os.fsync(handle.fileno())
            except KeyboardInterrupt:
                # SIGINT/SIGTERM during the flush or fsync of a file: the line is written, so it counts
                self._count(record, episode_id)
                raise
        self._count(record, episode_id)

    def _count(self, record: dict[str, Any], episode_id: str) -> None:
        """Hold a written record in memory (what the summary of an interrupted run counts)."""
        self.records.append(record)
        self.finished_ids.add(episode_id)
