"""Room classification: CLIP zero-shot over a room list (the ORACLE one is in tango.perception.oracle.rooms)."""

from __future__ import annotations

import numpy as np

from tango.perception.clip import ClipEmbedder
from tango.perception.config import RoomConfig
from tango.perception.context import BuildContext
from tango.perception.registry import register
from tango.types.observation import Observation


class ClipRoomClassifier:
    """The most likely room type for the current frame."""

    def __init__(self, clip: ClipEmbedder, rooms: list[str]) -> None:
        if not rooms:
            raise ValueError("room classifier: the room list is empty")
        self.clip = clip
        self.rooms = list(rooms)

    def probabilities(self, obs: Observation) -> np.ndarray:
        """(R,) zero-shot probabilities over `rooms`."""
        prompts = [f"a photo of a {room}" for room in self.rooms]
        return self.clip.probabilities([obs.rgb], prompts)[0]

    def classify(self, obs: Observation) -> str:
        """The top room type."""
        return self.rooms[int(np.argmax(self.probabilities(obs)))]


@register("room", "clip")
def clip_room_classifier(config: RoomConfig, ctx: BuildContext) -> ClipRoomClassifier:
    return ClipRoomClassifier(ctx.models.clip(config.clip), list(config.rooms))
