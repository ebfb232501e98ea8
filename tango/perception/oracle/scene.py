"""Ground-truth scene labels for ORACLE components: a by-id view of `tango.types.scene.SceneAnnotations`.

Only components named oracle hold an `OracleScene`; the agent's own logic never sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tango.sim.scene import load_annotations
from tango.types.scene import Room, SceneAnnotations, SceneObject


@dataclass
class FrameMemo:
    """What oracle components computed about the last frame they were given (`tango.perception.oracle.visible`
    fills it): several of them read every frame, and the frame is recognised by identity."""

    frame: object = None
    results: dict[Any, Any] = field(default_factory=dict)


@dataclass
class OracleScene:
    """The annotated objects (by semantic id) and rooms of one scene."""

    scene_id: str
    objects: dict[int, SceneObject]
    rooms: tuple[Room, ...]
    memo: FrameMemo = field(default_factory=FrameMemo, compare=False, repr=False)

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
