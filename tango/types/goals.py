"""Goals and targets handed to primitives: object handles, goal images, world positions."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Position = tuple[float, float, float]


@dataclass(frozen=True)
class ObjectHandle:
    """An object the agent perceived or remembers: label, world position (x, y, z), score, opaque id.

    Programs cannot read its fields (attribute access is not in the language); they pass it back to
    primitives such as `navigate_to`. `object_id` is the backend's own key, never a ground-truth id unless
    the perception is an oracle.
    """

    label: str
    position: Position
    score: float = 1.0
    object_id: str = ""

    def __str__(self) -> str:
        x, y, z = self.position
        return f"{self.label}@({x:.2f}, {y:.2f}, {z:.2f}) score={self.score:.2f}"


@dataclass(frozen=True, eq=False)
class GoalImage:
    """A goal given as a picture (GOAT image goals), bound to the program variable `goal_image`.

    `semantic` is the instance-id frame of the same render and `camera_pose` the render's 4x4 world-from-camera
    pose; like `Observation.semantic`, only components named oracle read them (the pose says where the goal is).
    """

    pixels: np.ndarray = field(repr=False)
    hfov_deg: float = 90.0
    semantic: np.ndarray | None = field(default=None, repr=False)
    camera_pose: np.ndarray | None = field(default=None, repr=False)

    def __str__(self) -> str:
        height, width = self.pixels.shape[:2]
        return f"<goal image {width}x{height}>"
