"""ORACLE image-goal recognition: which annotated instance a goal picture shows, read from its semantic render.

The oracle perceives the goal picture the way the oracle detector perceives views (instance ids from the
simulator), so "is this the object in the picture?" becomes "is this the same instance?". Only objects the
agent has itself observed can be returned as the goal; the picture alone gives no position.
"""

from __future__ import annotations

import numpy as np

CENTRE_FRACTION = 1.0 / 3.0


class OracleImageMatcher:
    """Names the instance at the centre of a goal picture's semantic frame (the one the picture is framed on)."""

    def __init__(self, min_pixels: int) -> None:
        self.min_pixels = min_pixels

    def goal_instance(self, semantic: np.ndarray | None) -> int | None:
        """The most common non-zero instance id in the central third of the frame, if it covers min_pixels."""
        if semantic is None:
            raise ValueError(
                "the oracle image matcher needs the goal picture's semantic frame (none was rendered)"
            )
        height, width = semantic.shape[:2]
        top, left = int(height * CENTRE_FRACTION), int(width * CENTRE_FRACTION)
        centre = semantic[top : height - top, left : width - left].reshape(-1)
        ids, counts = np.unique(centre[centre > 0], return_counts=True)
        if ids.size == 0:
            return None
        best = int(np.argmax(counts))
        if int((semantic == ids[best]).sum()) < self.min_pixels:
            return None
        return int(ids[best])
