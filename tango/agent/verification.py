"""What the agent keeps about detections it went back to check (the `verify` primitive).

A detector's errors are drawn per view (a look-alike named as the target, a background false positive), so one
detection is weak evidence; the same object reported again from close by, seen from another place, is strong
evidence. `Rejections` remembers where a check found nothing, so that the same mistake is not chased twice in
an episode; `nearest_within` picks the re-detection that confirms a candidate.
"""

from __future__ import annotations

import numpy as np

from tango.navigation.fmm_controller import planar_distance
from tango.perception.detections import Detections, normalise_label


class Rejections:
    """Places (per label) where a detection was checked and not seen again, for the rest of the episode."""

    def __init__(self, radius: float) -> None:
        self.radius = radius
        self.points: dict[str, list[np.ndarray]] = {}

    def add(self, label: str, point: np.ndarray) -> None:
        self.points.setdefault(normalise_label(label), []).append(np.asarray(point, dtype=np.float64))

    def near(self, label: str, point: np.ndarray) -> bool:
        """True when `point` lies within `radius` (floor plane) of a rejected place of `label`."""
        return any(
            planar_distance(p, point) <= self.radius for p in self.points.get(normalise_label(label), [])
        )

    def drop_near(self, detections: Detections, label: str) -> Detections:
        """The detections that lie away from every rejected place of `label` (all of them when none)."""
        if not self.points.get(normalise_label(label)):
            return detections
        return detections.select(
            [i for i in range(len(detections)) if not self.near(label, detections.points[i])]
        )


def nearest_within(detections: Detections, point: np.ndarray, radius: float) -> int:
    """Index of the detection nearest to `point` (floor plane) if it lies within `radius`, else -1."""
    index = detections.nearest_to(point)
    if index < 0 or planar_distance(detections.points[index], point) > radius:
        return -1
    return index
