"""ORACLE memory: recall() returns the annotated objects of a category that the agent has observed."""

from __future__ import annotations

from tango.perception.config import MemoryConfig
from tango.perception.detections import normalise_label
from tango.perception.interfaces import MapView, Recollection
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.types.observation import Observation


class ObservedObjectsMemory:
    """ORACLE: every observed instance of the recalled category, where it was last seen (score 1)."""

    def __init__(self, truth: GroundTruth) -> None:
        self.truth = truth

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Nothing to do: the ground-truth handle records every frame the agent receives."""

    def recall(self, target: str) -> list[Recollection]:
        label = normalise_label(target)
        return [
            Recollection(label, entry.last_point, 1.0, f"{label}#{entry.object.id}")
            for entry in self.truth.observed.of_category(label)
        ]

    def place(self, target: str) -> Recollection | None:
        """None: the observed objects are recalled as objects, there is no place to search first."""
        return None

    def contents(self) -> list[Recollection]:
        """Every observed instance, labelled with its category."""
        return [
            Recollection(
                entry.object.category, entry.last_point, 1.0, f"{entry.object.category}#{entry.object.id}"
            )
            for entry in self.truth.observed.objects()
        ]


@register("memory", "oracle", oracle=True)
def observed_objects_memory(config: MemoryConfig, ctx: OracleContext) -> ObservedObjectsMemory:
    return ObservedObjectsMemory(ctx.ground_truth)
