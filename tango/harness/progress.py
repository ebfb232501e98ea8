"""A rich progress bar for a run: episodes done of total, ETA, steps/s and the running success rate."""

from __future__ import annotations

import time
from typing import Any, Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

SUCCESS_KEYS = ("success", "llm_match", "normalised_match")


class RunProgress:
    """Context manager; call `update(record)` for each finished episode."""

    def __init__(
        self, task: str, total: int, already_done: int, enabled: bool, console: Console | None = None
    ):
        self.enabled = enabled
        self.total = total
        self._start = time.perf_counter()
        self._steps = 0
        self._score_sum = 0.0
        self._score_count = 0
        self._score_name = "SR"
        self._progress = Progress(
            TextColumn(f"[bold]{task}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[rate]} steps/s  {task.fields[score]}"),
            console=console,
            disable=not enabled,
            transient=False,
        )
        self._bar = self._progress.add_task(task, total=total, completed=already_done, rate="-", score="")

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def update(self, record: dict[str, Any]) -> None:
        """Advance by one finished episode and refresh steps/s and the running success rate."""
        self._steps += int(record.get("num_steps") or 0)
        metrics = record.get("metrics") or {}
        for key in SUCCESS_KEYS:
            if isinstance(metrics.get(key), (int, float)):
                self._score_name = "SR" if key == "success" else key
                self._score_sum += float(metrics[key])
                self._score_count += 1
                break
        elapsed = max(time.perf_counter() - self._start, 1e-9)
        score = f"{self._score_name} {self._score_sum / self._score_count:.3f}" if self._score_count else ""
        self._progress.update(self._bar, advance=1, rate=f"{self._steps / elapsed:.1f}", score=score)
