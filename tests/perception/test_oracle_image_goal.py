"""The ORACLE image-goal matcher names the instance a goal picture is aimed at, from its semantic render and pose."""

from __future__ import annotations

import numpy as np
import pytest

from tango.perception.build import describe_config
from tango.perception.config import perception_config
from tango.perception.oracle.image_goal import OracleImageMatcher
from tango.perception.oracle.scene import OracleScene
from tango.types.poses import camera_pose
from tango.types.scene import SceneObject


def _box(object_id: int, centre: tuple[float, float, float], half: float) -> SceneObject:
    lo = tuple(c - half for c in centre)
    hi = tuple(c + half for c in centre)
    return SceneObject(object_id, "thing", (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


SCENE = OracleScene(
    "s",
    {
        2: _box(
            2, (0.6, 1.0, -2.2), 0.5
        ),  # a wardrobe behind, a little to the side: fills the frame's centre
        3: _box(3, (0.0, 0.25, -1.0), 0.2),  # a trash can straight ahead, low: the bottom of the frame
        4: _box(4, (-1.5, 0.5, 0.0), 0.3),  # to the camera's left (yaw +90 deg faces it)
    },
    (),
)
LEVEL = camera_pose(np.zeros(3), yaw=0.0, height=0.88)  # at the origin, facing -z


def _picture() -> np.ndarray:
    semantic = np.zeros((90, 90), np.int32)
    semantic[10:70, 20:80] = 2  # the large instance covers the whole centre third
    semantic[75:88, 38:52] = 3  # the aimed-at instance lies below it, on the vertical centre line
    return semantic


def test_the_instance_aimed_at_wins_over_the_one_filling_the_centre() -> None:
    assert OracleImageMatcher(min_pixels=50).goal_instance(_picture(), LEVEL, SCENE) == 3


def test_the_camera_heading_decides_which_instance_is_aimed_at() -> None:
    semantic = _picture()
    semantic[0:8, 0:30] = 4
    assert OracleImageMatcher(min_pixels=50).goal_instance(semantic, LEVEL, SCENE) == 3
    left = camera_pose(np.zeros(3), yaw=np.pi / 2, height=0.88)
    assert OracleImageMatcher(min_pixels=50).goal_instance(semantic, left, SCENE) == 4


def test_goal_instance_ignores_background_tiny_and_unannotated_instances() -> None:
    semantic = np.zeros((90, 90), np.int32)
    assert OracleImageMatcher(min_pixels=10).goal_instance(semantic, LEVEL, SCENE) is None
    semantic[44:46, 44:46] = 3
    assert OracleImageMatcher(min_pixels=10).goal_instance(semantic, LEVEL, SCENE) is None
    assert OracleImageMatcher(min_pixels=4).goal_instance(semantic, LEVEL, SCENE) == 3
    semantic[:, :] = 9  # an id the annotation does not have
    assert OracleImageMatcher(min_pixels=4).goal_instance(semantic, LEVEL, SCENE) is None


def test_goal_instance_needs_a_semantic_render_and_its_pose() -> None:
    with pytest.raises(ValueError, match="semantic"):
        OracleImageMatcher(min_pixels=1).goal_instance(None, LEVEL, SCENE)
    with pytest.raises(ValueError, match="pose"):
        OracleImageMatcher(min_pixels=1).goal_instance(_picture(), None, SCENE)


def test_oracle_matcher_is_built_and_recorded_as_an_oracle_component() -> None:
    config = perception_config(
        {"matcher": {"kind": "oracle"}, "detector": {"kind": "owlvit", "path": "unused"}}
    )
    assert "matcher" in describe_config(config)["oracle_components"]
    sift = perception_config({"matcher": {"kind": "sift"}})
    assert "matcher" not in describe_config(sift)["oracle_components"]
