"""Procedural landmark models: a catalog of 127 distinct models (the card's count), one hung at every key node.

The catalog is 8 shapes x 16 colours less the last combination; a maze uses each model at most once.
"""

from __future__ import annotations

import colorsys

import numpy as np
import trimesh

NUM_SHAPES = 8
NUM_COLORS = 16
NUM_MODELS = NUM_SHAPES * NUM_COLORS - 1  # 127, as on the dataset card


def _shape(index: int) -> trimesh.Trimesh:
    """One of eight unit-sized solids, about 0.8 m across and at least 0.35 m wide from any horizontal view
    (a thinner solid at the end of a 30 m corridor covers no pixel of a 128-pixel sub-view)."""
    creators = (
        lambda: trimesh.creation.box(extents=(0.7, 0.7, 0.7)),
        lambda: trimesh.creation.icosphere(subdivisions=0, radius=0.45),
        lambda: trimesh.creation.icosphere(subdivisions=2, radius=0.4),
        lambda: trimesh.creation.cylinder(radius=0.35, height=0.8, sections=16),
        lambda: trimesh.creation.cone(radius=0.42, height=0.8, sections=16),
        lambda: trimesh.creation.capsule(radius=0.25, height=0.4, count=(8, 8)),
        lambda: trimesh.creation.torus(
            major_radius=0.3, minor_radius=0.18, major_sections=16, minor_sections=8
        ),
        lambda: trimesh.creation.box(extents=(0.35, 0.9, 0.35)),  # upright: never seen end-on
    )
    mesh = creators[index]()
    if index in (4, 5, 6):
        mesh.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, (1, 0, 0)))
    return mesh


def model_color(index: int) -> tuple[int, int, int, int]:
    """The colour of model index: 16 hues alternating bright and dark."""
    color_index = index % NUM_COLORS
    hue = (color_index * 7 % NUM_COLORS) / NUM_COLORS
    value = 1.0 if color_index % 2 == 0 else 0.6
    r, g, b = colorsys.hsv_to_rgb(hue, 0.85, value)
    return int(r * 255), int(g * 255), int(b * 255), 255


def landmark_model(index: int) -> trimesh.Trimesh:
    """Model index (0..126): shape index // 16 in colour index % 16, centred at the origin."""
    if not 0 <= index < NUM_MODELS:
        raise ValueError(f"landmark model index {index} outside [0, {NUM_MODELS})")
    mesh = _shape(index // NUM_COLORS)
    mesh.apply_translation(-mesh.bounding_box.centroid)
    colors = np.tile(np.array(model_color(index), np.uint8), (len(mesh.faces), 1))
    mesh.visual = trimesh.visual.ColorVisuals(mesh, face_colors=colors)
    return mesh
