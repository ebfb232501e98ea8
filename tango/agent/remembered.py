"""The objects the agent found itself (detections and matched descriptions), kept for the whole episode.

Each is stored under a stable key: the key its component gave (an oracle's instance), else the key of an
earlier object of the same label within `merge_distance` metres, else a new one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tango.perception.detections import Detections
from tango.perception.interfaces import Recollection
from tango.types.goals import ObjectHandle, Position


class RememberedObjects:
    """Handles by key; `remember` adds or replaces them."""

    def __init__(self, merge_distance: float) -> None:
        self.merge_distance = merge_distance
        self.handles: dict[str, ObjectHandle] = {}

    def remember(self, recollections: list[Recollection]) -> dict[str, ObjectHandle]:
        """Store each under its key (or one merged by nearness); return the handles stored now by key."""
        current: dict[str, ObjectHandle] = {}
        for item in recollections:
            key = item.key or self._key_near(item.label, item.point)
            handle = ObjectHandle(item.label, position(item.point), float(item.score), key)
            self.handles[key] = handle
            current[key] = handle
        return current

    def _key_near(self, label: str, point: np.ndarray) -> str:
        for key, handle in self.handles.items():
            if (
                handle.label == label
                and np.linalg.norm(np.asarray(handle.position) - point) < self.merge_distance
            ):
                return key
        return f"{label}@{len(self.handles)}"


def detections_as_recollections(detections: Detections, label: str) -> list[Recollection]:
    """Detections of `label`, keyed by instance when their detector knows it (an oracle), else by nearness."""
    return [
        Recollection(
            label,
            detections.points[i],
            float(detections.scores[i]),
            f"{label}#{int(detections.instance_ids[i])}" if detections.instance_ids[i] >= 0 else None,
        )
        for i in range(len(detections))
    ]


def position(point: Any) -> Position:
    """A world point as the (x, y, z) tuple handles carry."""
    x, y, z = (float(v) for v in np.asarray(point).reshape(3))
    return (x, y, z)
