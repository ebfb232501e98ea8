"""ORACLE visibility: which annotated objects the semantic frame of an observation shows, and where they are."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from tango.agent.observation import Observation
from tango.perception.geometry import region_point
from tango.perception.oracle.scene import OracleScene
from tango.sim.scene import SceneObject


@dataclass
class VisibleObject:
    """An annotated object with at least the minimum pixel area in the frame."""

    object: SceneObject
    pixels: int
    box: np.ndarray
    window: tuple[slice, slice]
    local_mask: np.ndarray
    point: np.ndarray

    def paint(self, canvas: np.ndarray) -> np.ndarray:
        """Write this object's mask into a full-frame boolean `canvas` (returned)."""
        canvas[self.window] = self.local_mask
        return canvas


def visible_objects(obs: Observation, scene: OracleScene, min_pixels: int) -> list[VisibleObject]:
    """Annotated objects visible in `obs.semantic` with >= `min_pixels` pixels, largest first."""
    if obs.semantic is None:
        raise ValueError("oracle perception needs the semantic sensor (Observation.semantic is None)")
    semantic = np.asarray(obs.semantic)
    try:
        counts = np.bincount(semantic.ravel())
    except ValueError as error:
        raise ValueError("oracle perception: the semantic frame has negative instance ids") from error
    ids = [int(i) for i in np.nonzero(counts >= max(min_pixels, 1))[0] if i > 0 and int(i) in scene.objects]
    if not ids:
        return []
    slices = ndimage.find_objects(semantic, max_label=max(ids))
    found = []
    for object_id in ids:
        rows_slice, cols_slice = slices[object_id - 1]
        local = semantic[rows_slice, cols_slice] == object_id
        rows, cols = np.nonzero(local)
        rows += rows_slice.start
        cols += cols_slice.start
        box = np.array(
            [cols_slice.start, rows_slice.start, cols_slice.stop, rows_slice.stop], dtype=np.float32
        )
        point = region_point(obs, rows, cols)
        window = (rows_slice, cols_slice)
        found.append(
            VisibleObject(scene.objects[object_id], int(counts[object_id]), box, window, local, point)
        )
    found.sort(key=lambda v: -v.pixels)
    return found


def full_masks(visible: list[VisibleObject], shape: tuple[int, int]) -> np.ndarray:
    """(N, H, W) boolean masks of `visible`, written into one preallocated array."""
    masks = np.zeros((len(visible), *shape), dtype=bool)
    for canvas, item in zip(masks, visible):
        item.paint(canvas)
    return masks
