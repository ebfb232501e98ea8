"""Split statistics (view points per goal, neighbour spacing, start distances, episodes per scene) on a small
hand-written split in the published ObjectNav shape, and through the command line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tango.scenes import __main__ as scenes_cli
from tango.scenes.datasets.stats import split_statistics


def _view(x: float, z: float) -> dict[str, object]:
    return {"agent_state": {"position": [x, 0.0, z], "rotation": [0.0, 0.0, 0.0, 1.0]}, "iou": 0.1}


def _split(root: Path) -> Path:
    chair = [_view(0.1 * i, 0.0) for i in range(5)]  # a row: spacing 0.1
    bed = [_view(0.0, 0.0), _view(0.0, 0.3), _view(2.0, 2.0)]  # spacings 0.3, 0.3, 2.62
    goals = {
        "s.glb_chair": [
            {"object_id": 1, "object_category": "chair", "position": [0, 0, 0], "view_points": chair}
        ],
        "s.glb_bed": [{"object_id": 2, "object_category": "bed", "position": [0, 0, 0], "view_points": bed}],
    }
    episodes = [
        {"episode_id": str(i), "scene_id": "s.glb", "start_position": [0, 0, 0], "start_rotation": [0, 0, 0, 1],
         "object_category": category, "info": {"geodesic_distance": distance}}
        for i, (category, distance) in enumerate([("chair", 2.0), ("bed", 4.0), ("chair", 9.0)])
    ]  # fmt: skip
    path = root / "val" / "val.json.gz"
    path.parent.mkdir(parents=True)
    with gzip.open(path, "wt") as fh:
        json.dump({"episodes": episodes, "goals_by_category": goals}, fh)
    return path


def test_statistics_count_each_goal_once(tmp_path: Path) -> None:
    stats = split_statistics("objectnav", _split(tmp_path))
    assert (stats["episodes"], stats["scenes"], stats["goals"]) == (3, 1, 2)
    assert stats["view_points_per_goal"]["median"] == 4.0
    assert stats["neighbour_spacing_m"]["count"] == 8
    assert stats["neighbour_spacing_m"]["median"] == pytest.approx(0.1)
    assert stats["neighbour_spacing_m"]["max"] == pytest.approx(2.6249, abs=1e-3)
    assert stats["start_geodesic_m"]["median"] == 4.0 and stats["episodes_per_scene"]["max"] == 3.0


def test_stats_command_prints_one_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert scenes_cli.main(["stats", "objectnav", str(_split(tmp_path))]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["task"] == "objectnav" and printed["goals"] == 2
