"""The published episode files load as habitat-lab loads them: every episode, with what scoring does not use
(view point rotations) tolerated, normalised and counted in one warning."""

from __future__ import annotations

import gzip
import json
import logging
import math
from pathlib import Path

import pytest

from tango.formats.nav_episodes import read_nav_episodes
from tango.formats.objectnav import read_episodes as read_objectnav

PUBLISHED = Path(__file__).parent / "published"
MP3D_VAL_MINI = PUBLISHED / "objectnav_mp3d" / "val_mini"


def test_the_published_mp3d_val_mini_loads_all_30_episodes(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="tango.formats.nav_episodes"):
        loaded = read_objectnav(MP3D_VAL_MINI)
    assert loaded.problems == []
    assert len(loaded.episodes) == 30
    warnings = [r.getMessage() for r in caplog.records if "view point rotation" in r.getMessage()]
    assert len(warnings) == 1
    assert "5 view point rotation(s) were not unit quaternions (norms 0.98356 to 1.0629)" in warnings[0]
    table = next(e for e in loaded.episodes if e.episode_id == "149")  # the episode refused before
    rotations = [v.agent_state.rotation for g in table.goals for v in g.view_points]
    assert all(abs(math.sqrt(sum(c * c for c in q)) - 1.0) < 0.01 for q in rotations)


def test_the_file_is_the_published_one_unchanged() -> None:
    data = json.loads(gzip.decompress((MP3D_VAL_MINI / "val_mini.json.gz").read_bytes()))
    assert len(data["episodes"]) == 30
    view = data["goals_by_category"]["x8F5xyUWy9e.glb_table"][3]["view_points"][499]
    assert view["agent_state"]["rotation"] == [0, 0.98356, 0, 0.00046]


def _split(tmp_path: Path, rotation: list[float], start_rotation: list[float] | None = None) -> Path:
    view = {"agent_state": {"position": [1.0, 0.0, 2.0], "rotation": rotation}, "iou": 0.5}
    goal = {"object_id": 3, "object_category": "chair", "position": [1.0, 0.5, 2.5], "view_points": [view]}
    episode = {"episode_id": "0", "scene_id": "apt.glb", "start_position": [0.0, 0.0, 0.0],
               "start_rotation": start_rotation or [0.0, 0.0, 0.0, 1.0], "object_category": "chair", "info": {}}  # fmt: skip
    split = tmp_path / "val"
    split.mkdir(parents=True)
    data = {"episodes": [episode], "goals_by_category": {"apt.glb_chair": [goal]}}
    (split / "val.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
    return split


def test_an_off_norm_view_rotation_is_normalised_and_a_zero_one_refused(tmp_path: Path) -> None:
    loaded = read_nav_episodes(_split(tmp_path / "a", [0.0, 2.0, 0.0, 0.0]))
    assert loaded.episodes[0].goals[0].view_points[0].agent_state.rotation == (0.0, 1.0, 0.0, 0.0)
    refused = read_nav_episodes(_split(tmp_path / "b", [0.0, 0.0, 0.0, 0.0]))
    assert refused.episodes == []
    assert "view_points[0].agent_state.rotation: must be a rotation quaternion" in str(refused.problems[0])
    not_numbers = read_nav_episodes(_split(tmp_path / "c", [0.0, "1", 0.0, 0.0]))
    assert "must be a list of 4 finite numbers" in str(not_numbers.problems[0])


def test_the_start_rotation_the_agent_is_placed_with_is_still_checked(tmp_path: Path) -> None:
    loaded = read_nav_episodes(
        _split(tmp_path, [0.0, 0.0, 0.0, 1.0], start_rotation=[0.0, 0.98356, 0.0, 0.0])
    )
    assert loaded.episodes == []
    assert "start_rotation: must be a unit quaternion" in str(loaded.problems[0])
