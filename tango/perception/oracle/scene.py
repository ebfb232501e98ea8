"""Ground-truth scene labels for ORACLE components: a by-id view of `tango.sim.scene.SceneAnnotations`.

Only components named oracle hold an `OracleScene`; the agent's own logic never sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tango.sim.scene import Room, SceneAnnotations, SceneObject, load_annotations


@dataclass
class OracleScene:
    """The annotated objects (by semantic id) and rooms of one scene."""

    scene_id: str
    objects: dict[int, SceneObject]
    rooms: tuple[Room, ...]

    @classmethod
    def from_annotations(cls, annotations: SceneAnnotations) -> OracleScene:
        """Index a loaded annotation by object id."""
        return cls(annotations.scene_id, {o.id: o for o in annotations.objects}, annotations.rooms)

    def room_at(self, position: np.ndarray) -> str:
        """Type of the room containing `position`, or "" when it is in none."""
        for room in self.rooms:
            if room.contains(position):
                return room.type
        return ""


def load_oracle_scene(path: str | Path) -> OracleScene:
    """Read `{scene_id}.annotations.json` (errors are `tango.sim.scene.SceneError` naming the file)."""
    return OracleScene.from_annotations(load_annotations(path))
