"""ORACLE room classifier: the annotated room that contains the agent."""

from __future__ import annotations

from tango.perception.config import RoomConfig
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.oracle.scene import OracleScene
from tango.perception.registry import register
from tango.types.observation import Observation


class OracleRoomClassifier:
    """ORACLE: the annotated room containing the agent ("" outside every room)."""

    def __init__(self, scene: OracleScene) -> None:
        self.scene = scene

    def classify(self, obs: Observation) -> str:
        """The annotated room type at `obs.agent_position`."""
        return self.scene.room_at(obs.agent_position)


@register("room", "oracle", oracle=True)
def oracle_room_classifier(config: RoomConfig, ctx: OracleContext) -> OracleRoomClassifier:
    return OracleRoomClassifier(ctx.ground_truth.scene)
