"""The ORACLE image-goal matcher names the instance a goal picture is framed on, from its semantic render."""

from __future__ import annotations

import numpy as np
import pytest

from tango.perception.build import describe_config
from tango.perception.config import perception_config
from tango.perception.oracle.image_goal import OracleImageMatcher


def test_goal_instance_is_the_most_common_id_in_the_centre() -> None:
    semantic = np.zeros((90, 90), np.int32)
    semantic[:, :] = 7  # a wall-sized object everywhere
    semantic[35:55, 30:60] = 3  # the framed object covers most of the centre
    assert OracleImageMatcher(min_pixels=50).goal_instance(semantic) == 3


def test_goal_instance_ignores_background_and_tiny_objects() -> None:
    semantic = np.zeros((90, 90), np.int32)
    assert OracleImageMatcher(min_pixels=10).goal_instance(semantic) is None
    semantic[44:46, 44:46] = 5
    assert OracleImageMatcher(min_pixels=10).goal_instance(semantic) is None
    assert OracleImageMatcher(min_pixels=4).goal_instance(semantic) == 5


def test_goal_instance_needs_a_semantic_render() -> None:
    with pytest.raises(ValueError, match="semantic"):
        OracleImageMatcher(min_pixels=1).goal_instance(None)


def test_oracle_matcher_is_built_and_recorded_as_an_oracle_component() -> None:
    config = perception_config(
        {"matcher": {"kind": "oracle"}, "detector": {"kind": "owlvit", "path": "unused"}}
    )
    assert "matcher" in describe_config(config)["oracle_components"]
    sift = perception_config({"matcher": {"kind": "sift"}})
    assert "matcher" not in describe_config(sift)["oracle_components"]
