"""VLFM's fog-of-war reveal on hand-made navigable maps: a wall across the view, a pillar's shadow, open space."""

from __future__ import annotations

import numpy as np

from tango.mapping.fog_of_war import reveal_cone

CAMERA = (100, 100)


def revealed(navigable: np.ndarray, yaw: float = 0.0, hfov: float = 90.0) -> np.ndarray:
    """Full-map boolean mask of what a camera at CAMERA reveals (50 px range)."""
    area = reveal_cone(navigable, CAMERA, yaw, hfov, 50.0)
    assert area is not None
    full = np.zeros(navigable.shape, bool)
    h, w = area.mask.shape
    full[area.row0 : area.row0 + h, area.col0 : area.col0 + w] = area.mask > 0
    return full


def test_open_space_reveals_nothing_as_in_vlfm() -> None:
    assert reveal_cone(np.ones((200, 200), bool), CAMERA, 0.0, 90.0, 50.0) is None


def test_wall_across_the_view_stops_the_reveal() -> None:
    navigable = np.ones((200, 200), bool)
    navigable[130] = False  # 30 px ahead (yaw 0 looks toward +rows)
    seen = revealed(navigable)
    assert seen[CAMERA] and seen[120, 100] and seen[129, 100]
    assert seen[120, 115]  # 37 deg off-axis, inside the 45 deg half-FOV
    assert not seen[120, 125]  # 51 deg off-axis
    assert not seen[130, 100] and not seen[135, 100]  # the wall and what lies behind it
    assert not seen[90, 100]  # behind the camera


def test_pillar_casts_a_shadow_but_not_on_its_sides() -> None:
    navigable = np.ones((200, 200), bool)
    navigable[120:125, 98:103] = False
    seen = revealed(navigable)
    assert seen[110, 100]  # in front of the pillar
    assert not seen[122, 100]  # the pillar
    assert not seen[140, 100]  # in its shadow
    assert seen[140, 120] and seen[140, 80]  # 27 deg to either side, beside the shadow


def test_turning_left_reveals_toward_minus_columns() -> None:
    navigable = np.ones((200, 200), bool)
    navigable[:, 70] = False  # a wall 30 px toward -cols
    seen = revealed(navigable, yaw=np.pi / 2)
    assert seen[100, 80] and not seen[100, 120] and not seen[100, 65]


def test_camera_outside_the_map_reveals_nothing() -> None:
    navigable = np.ones((200, 200), bool)
    navigable[130] = False
    assert reveal_cone(navigable, (250, 100), 0.0, 90.0, 50.0) is None
