"""Views from poses other than the agent's cameras, at their own resolution and field of view (GOAT-Bench renders
each goal picture with the camera its `image_goals` entry stores: position, rotation, hfov, image size)."""

from __future__ import annotations

from collections.abc import Sequence

import moderngl
import numpy as np
import trimesh

from tango.sim.render import Frame, Renderer
from tango.types.poses import quaternion_to_matrix


def view_pose(
    position: Sequence[float] | np.ndarray, rotation_xyzw: Sequence[float] | np.ndarray
) -> np.ndarray:
    """4x4 world-from-camera of a camera at `position` turned by a habitat quaternion [x, y, z, w] (-z ahead)."""
    pose = np.eye(4)
    pose[:3, :3] = quaternion_to_matrix(np.asarray(rotation_xyzw, dtype=np.float64))
    pose[:3, 3] = np.asarray(position, dtype=np.float64)
    return pose


class ViewRenderers:
    """One renderer per (width, height, hfov, sensors) asked for, in the simulator's GL context; released with the
    scene they draw."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self._ctx = ctx
        self._renderers: dict[tuple[int, int, float, tuple[str, ...]], Renderer] = {}

    def render(
        self,
        scene: trimesh.Scene,
        pose: np.ndarray,
        size: tuple[int, int],
        hfov_deg: float,
        sensors: tuple[str, ...],
    ) -> Frame:
        """The frame of a camera at `pose` with `size` (width, height) pixels."""
        key = (int(size[0]), int(size[1]), float(hfov_deg), sensors)
        renderer = self._renderers.get(key)
        if renderer is None:
            renderer = Renderer(scene, key[0], key[1], key[2], sensors=sensors, ctx=self._ctx)
            self._renderers[key] = renderer
        return renderer.render(pose)

    def release(self) -> None:
        for renderer in self._renderers.values():
            renderer.release()
        self._renderers = {}
