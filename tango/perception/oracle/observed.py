"""What the agent has actually seen: annotated objects recorded from ORACLE detections, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.perception.detections import normalise_label
from tango.perception.oracle.visible import VisibleObject
from tango.types.scene import SceneObject


@dataclass
class ObservedObject:
    """An object seen at least once, with how often and where it was last seen (world point; NaNs while it has
    only been seen without a depth reading, e.g. beyond the sensor's range)."""

    object: SceneObject
    times_seen: int
    last_point: np.ndarray


class ObservedObjects:
    """Objects recorded by `record`; queries only ever return recorded objects."""

    def __init__(self) -> None:
        self._seen: dict[int, ObservedObject] = {}

    def record(self, visible: list[VisibleObject]) -> None:
        """Add the objects visible in one frame."""
        for item in visible:
            entry = self._seen.get(item.object.id)
            if entry is None:
                self._seen[item.object.id] = ObservedObject(item.object, 1, item.point)
            else:
                entry.times_seen += 1
                if np.all(np.isfinite(item.point)):  # a sighting without depth keeps the last known place
                    entry.last_point = item.point

    def __len__(self) -> int:
        return len(self._seen)

    def __contains__(self, object_id: int) -> bool:
        return object_id in self._seen

    def get(self, object_id: int) -> ObservedObject | None:
        """The observed object with this id, None when it was never recorded."""
        return self._seen.get(object_id)

    def objects(self) -> list[ObservedObject]:
        """Every observed object, in id order."""
        return [self._seen[i] for i in sorted(self._seen)]

    def categories(self) -> list[str]:
        """Observed categories, normalised and sorted."""
        return sorted({normalise_label(o.object.category) for o in self._seen.values()})

    def of_category(self, category: str) -> list[ObservedObject]:
        """Observed objects of `category`."""
        wanted = normalise_label(category)
        return [o for o in self.objects() if normalise_label(o.object.category) == wanted]
