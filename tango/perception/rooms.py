"""Room classification: CLIP zero-shot over a room list, or the ORACLE annotated room at the agent's position."""

from __future__ import annotations

import numpy as np

from tango.agent.observation import Observation
from tango.perception.clip import ClipEmbedder
from tango.perception.oracle_scene import OracleScene


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


class OracleRoomClassifier:
    """ORACLE: the annotated room containing the agent ("" outside every room)."""

    def __init__(self, scene: OracleScene) -> None:
        self.scene = scene

    def classify(self, obs: Observation) -> str:
        """The annotated room type at `obs.agent_position`."""
        return self.scene.room_at(obs.agent_position)
