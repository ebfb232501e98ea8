"""The per-episode execution trace: every executed line, every primitive call (arguments, a short summary of
the result, environment steps it consumed) and the error with its line, written as JSONL as it happens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import numpy as np

SUMMARY_CHARS = 160


def summarize(value: Any, limit: int = SUMMARY_CHARS, depth: int = 0) -> str:
    """A short human-readable rendering of a program value for the trace (bounded in length and depth)."""
    if isinstance(value, np.ndarray):
        text = f"<array {value.dtype} {tuple(value.shape)}>"
    elif isinstance(value, (list, tuple)):
        if depth >= 2:
            return f"[{len(value)} items]"
        items = ", ".join(summarize(item, 60, depth + 1) for item in value[:3])
        more = f", ... ({len(value)} items)" if len(value) > 3 else ""
        text = f"[{items}{more}]"
    elif isinstance(value, str):
        text = repr(value[:limit])
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Trace:
    """Collects trace events in memory and, when given a path, appends them to a JSONL file (flushed)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.events: list[dict[str, Any]] = []
        self._file: IO[str] | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")

    def emit(self, event: str, **fields: Any) -> None:
        record = {"event": event, **fields}
        self.events.append(record)
        if self._file is not None:
            self._file.write(json.dumps(record, default=str) + "\n")
            self._file.flush()

    def of(self, event: str) -> list[dict[str, Any]]:
        """The events of one kind, in order."""
        return [e for e in self.events if e["event"] == event]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
