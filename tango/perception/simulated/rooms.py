"""SIMULATED room classifier: the annotated room at the agent's position, confused per view at documented rates.

With probability `confusion` a view's room is named as one of its look-alikes (living room as dining room,
bedroom as office, ...; only room types the scene has), with probability `other` as any other room type of the
scene. Draws are keyed by the seed, the scene and the camera pose (the same view is always named the same).
Reads the annotation, so it is registered as an oracle (`room` in `oracle_components`).
"""

from __future__ import annotations

from tango.perception.config import RoomConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.oracle.scene import OracleScene
from tango.perception.registry import register
from tango.perception.simulated.draws import frame_key, uniforms
from tango.perception.simulated.params import RoomNoise, parse
from tango.types.observation import Observation


class SimulatedRoomClassifier:
    """The annotated room type, or a look-alike / another room type at the configured rates."""

    def __init__(self, scene: OracleScene, noise: RoomNoise) -> None:
        self.scene = scene
        self.noise = noise
        self.types = sorted({normalise_label(room.type) for room in scene.rooms})
        self.look_alikes: dict[str, list[str]] = {}
        for room, others in noise.look_alikes.items():
            name = normalise_label(room)
            self.look_alikes[name] = sorted({normalise_label(o) for o in others} & set(self.types) - {name})

    def classify(self, obs: Observation) -> str:
        """The room type the simulated classifier names for this view ("" outside every room)."""
        truth = self.scene.room_at(obs.agent_position)
        if not truth:
            return truth
        key = frame_key(self.noise.seed, self.scene.scene_id, obs)
        kind, pick = uniforms(key, "room", [0, 1])
        alikes = self.look_alikes.get(normalise_label(truth), [])
        others = [t for t in self.types if t != normalise_label(truth)]
        if kind < self.noise.confusion and alikes:
            return alikes[int(pick * len(alikes))]
        if kind >= 1.0 - self.noise.other and others:
            return others[int(pick * len(others))]
        return truth


@register("room", "simulated", oracle=True)
def simulated_room_classifier(config: RoomConfig, ctx: OracleContext) -> SimulatedRoomClassifier:
    return SimulatedRoomClassifier(ctx.ground_truth.scene, parse(RoomNoise, config.options, "room"))
