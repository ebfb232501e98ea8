"""Where a runner sends what the agent sees each step (the harness records it into videos and thumbnails)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class FrameSink(Protocol):
    """Where a runner sends what it sees each step: recorded into the episode video and thumbnail if enabled."""

    @property
    def enabled(self) -> bool:
        """True when frames are used (video on); runners may skip composing top-down panels when False."""
        ...

    def add(
        self,
        rgb: np.ndarray,
        depth: np.ndarray | None = None,
        topdown: np.ndarray | None = None,
        program_line: str = "",
    ) -> None:
        """Record one step: RGB (HxWx3 uint8), depth (HxW metres), top-down map (uint8 RGB), current line."""
        ...
